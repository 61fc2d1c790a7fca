// Payload types for tools: what crosses the API boundary. No Node, Electron or DOM imports.
import type { ToolCallInspection, VarRefUse } from './tool-inspection.ts';
import type { ToolAppRef } from './mcp-apps.ts';
import type { ToolRule } from './permissions.ts';

/** A JSON Schema object (draft-07 / 2019-09 subset as used by OpenAI function specs). */
export type JsonSchema = { [key: string]: unknown };

export interface ToolFunctionSpec {
  name: string;
  description?: string;
  parameters: JsonSchema;
}

/** An OpenAI function-tool definition; never carries non-OpenAI fields. */
export interface ToolDefinition {
  type: 'function';
  function: ToolFunctionSpec;
}

export type ExecutionPolicy = 'auto' | 'ask-once' | 'ask-always';
export type ResultApprovalPolicy = 'never' | 'on-error' | 'always';
export const EXECUTION_POLICIES: readonly ExecutionPolicy[] = ['auto', 'ask-once', 'ask-always'];
export const RESULT_APPROVAL_POLICIES: readonly ResultApprovalPolicy[] = ['never', 'on-error', 'always'];

export interface ToolPermission {
  executionPolicy?: ExecutionPolicy;
  resultApprovalPolicy?: ResultApprovalPolicy;
}

export type ToolExecuteStatus = 'SUCCESS' | 'ERROR' | 'EXECUTION_REJECTED' | 'RESULT_REJECTED' | 'NOT_FOUND';

export interface TruncationInfo {
  truncated: boolean;
  originalLength: number;
  keptLength: number;
  omitted: number;
}

/**
 * An image a tool returned (MCP image content). The executor hands over the bytes (`data`); a
 * chat session keeps them as a file of the session (`stored`) and drops `data`, so events and the
 * session file stay small. `note` says why an image was not kept (too big, a type models refuse).
 */
export interface ToolResultImage {
  mimeType: string;
  /** Bytes of the decoded image. */
  size: number;
  /** base64, until a session stored it. */
  data?: string;
  /** The session's copy (a file name under the session's files folder). */
  stored?: string;
  note?: string;
}

/**
 * The outcome of ToolExecutor.execute(), a union on `status`: each status carries its own fields.
 * `finalText` is what the model sees. Session files written before the union (every field
 * optional) are read through chat/session-result.ts.
 */
export type ToolExecuteResult = ToolSuccessResult | ToolErrorResult | ToolRejectedResult | ToolNotFoundResult;
export type ToolSuccessResult = OnlyOwn<ToolSuccessFields>;
export type ToolErrorResult = OnlyOwn<ToolErrorFields>;
export type ToolRejectedResult = OnlyOwn<ToolRejectedFields>;
export type ToolNotFoundResult = OnlyOwn<ToolNotFoundFields>;

type AnyStatusKey = keyof ToolSuccessFields | keyof ToolErrorFields | keyof ToolRejectedFields | keyof ToolNotFoundFields;
/** A status's own fields; another status's field is never set, so reading it off the union is safe. */
type OnlyOwn<T> = T & { [K in Exclude<AnyStatusKey, keyof T>]?: never };

/** What every result carries. */
interface ToolResultBase {
  status: ToolExecuteStatus;
  /** What the model sees. */
  finalText: string;
  /** The real tool name (not the model-facing alias); absent when no tool had the name. */
  toolName?: string;
  /** The call id used for variables. */
  callId?: string;
  durationMs?: number;
}

/** Where a cut text's whole copy was kept (the model reads the rest with ReadVar). */
interface CutAndCached {
  isTruncated?: boolean;
  truncation?: TruncationInfo;
  cacheVarResult?: string;
  cacheVarArgs?: string;
  /** Where the structured data beside a summary text was kept (MCP `structuredContent`). */
  cacheVarStructured?: string;
}

/** What the run left behind, for the user (never sent to the model). */
interface RunRecord {
  /** What the tool printed besides its result (stderr, print()). */
  logs?: string;
  warnings?: string[];
  /** What the Inspect panel shows. */
  inspection?: ToolCallInspection;
  /** The arguments the call ran with when the user edited them on the approval card. */
  editedArgs?: Record<string, unknown>;
}

interface ToolSuccessFields extends ToolResultBase, CutAndCached, RunRecord {
  status: 'SUCCESS';
  data?: unknown;
  formattedText?: string;
  /** Images the tool returned: shown in the chat, and sent to models known to accept images. */
  images?: ToolResultImage[];
  /** The tool answered with an MCP App (`ui://` resource): the chat shows it in the call's block. */
  app?: ToolAppRef;
}

interface ToolErrorFields extends ToolResultBase, CutAndCached, RunRecord {
  status: 'ERROR';
  /** For the user (the model reads `finalText`). */
  error: string;
  /** What the tool returned with its error, when anything. */
  data?: unknown;
  /** The user stopped it (cancelled the call or the turn): the UI says "cancelled", not "error". */
  cancelled?: boolean;
}

interface ToolRejectedFields extends ToolResultBase {
  /** The rules or the user refused the run, or the user withheld the result. */
  status: 'EXECUTION_REJECTED' | 'RESULT_REJECTED';
  rejectReason: string;
  warnings?: string[];
  /** Absent for calls refused before they could run. */
  inspection?: ToolCallInspection;
  /** RESULT_REJECTED: the arguments the user edited before approving the run. */
  editedArgs?: Record<string, unknown>;
  /** The turn was stopped while the question was open. */
  cancelled?: boolean;
}

interface ToolNotFoundFields extends ToolResultBase {
  status: 'NOT_FOUND';
  error: string;
}

export type ToolFormat = 'builtin' | 'python' | 'open-webui' | 'powershell' | 'script' | 'three-layer' | 'module' | 'mcp' | 'skill';

export interface ToolSourceInfo {
  format: ToolFormat;
  /** Absolute path of the file that defines the tool. */
  file: string;
  root?: string;
  line?: number;
}

export type DiagnosticSeverity = 'error' | 'warning' | 'info';

/** A problem found while loading or running user tools. Never an exception. */
export interface Diagnostic {
  severity: DiagnosticSeverity;
  file: string;
  line?: number;
  column?: number;
  message: string;
  /** What the user should do about it. */
  hint?: string;
  code?: string;
  /** The docs page that says how to fix it (a path under docs/, see docs-pages.ts). */
  docs?: string;
}

/**
 * The code of the diagnostic naming a project tool folder the user has not approved (its `file`
 * is the folder): the Tools panel offers to approve it, `tooldesk tools trust` does the same.
 */
export const UNTRUSTED_FOLDER_CODE = 'untrusted-project-folder';

export interface DeclaredReturnType {
  type: string;
  note?: string;
}

/** A partial update streamed by a running tool (module tools' onUpdate, script output). */
export interface ToolUpdate {
  text?: string;
  details?: unknown;
  /** A message for a toast (Open WebUI's `notification` event), beside the call's progress. */
  notification?: ToolNotification;
}

export interface ToolNotification {
  level: 'info' | 'success' | 'warning' | 'error';
  text: string;
}

export type ApprovalType = 'execution' | 'result';

export interface ApprovalRequest {
  id: string;
  type: ApprovalType;
  sessionId: string;
  callId: string;
  toolName: string;
  groupName: string;
  /** Arguments after $VAR_REF resolution: what will actually run. */
  args: Record<string, unknown>;
  /** Why it asks. */
  policy: ExecutionPolicy | ResultApprovalPolicy;
  /** For result approval: what would be sent to the model. */
  result?: { status: ToolExecuteStatus; text: string };
  /** The `$VAR_REF`s the arguments used, shown next to the resolved values. */
  varRefs?: VarRefUse[];
  /** Why it asks although it would not have (a rule, a changed MCP server): shown on the card. */
  note?: string;
  /** What the tool says about this call (a skill's origin, its flags): shown on the card. */
  detail?: string[];
}

export type ApprovalDecisionKind = 'once' | 'session' | 'always' | 'reject';

export interface ApprovalDecision {
  decision: ApprovalDecisionKind;
  reason?: string;
  /**
   * A rejection nobody made: the question could not be asked (an MCP client without elicitation,
   * a terminal whose input ended). `reason` says why; the model is not told the user refused.
   */
  unasked?: true;
  /** Remember a rejection for this session (rejections are otherwise asked again). */
  remember?: 'session';
  /**
   * Execution approvals only: the arguments the user edited on the card. The call runs with them
   * (validated again) and the model is told they changed.
   */
  args?: Record<string, unknown>;
  /**
   * With `always`: allow calls like this one (an allow rule for this tool, added to
   * settings.toolRules) instead of every call of the tool.
   */
  rule?: ToolRule;
}

/** A tool as the UI and the CLI list it. */
export interface ToolInfo {
  name: string;
  /** The name the model sees when `name` breaks providers' rules. */
  modelName: string;
  groupName: string;
  description: string;
  parameters: JsonSchema;
  format: ToolFormat;
  source?: ToolSourceInfo;
  permission: Required<ToolPermission>;
  enabled: boolean;
  declaredReturnType?: DeclaredReturnType;
  secrets?: string[];
  meta?: Record<string, unknown>;
}

export interface ToolGroupInfo {
  name: string;
  enabled: boolean;
  builtin: boolean;
  /** On unless the user switched it off (the skills group); other groups start off. */
  enabledByDefault?: boolean;
  tools: ToolInfo[];
}
