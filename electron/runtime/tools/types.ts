// Runtime-side tool types: the contract every tool source produces and ToolExecutor consumes.
// Payload types (what crosses the API) live in shared/tools.ts.
import type {
  ApprovalDecision,
  ApprovalRequest,
  DeclaredReturnType,
  ToolDefinition,
  ToolExecuteStatus,
  ToolPermission,
  ToolSourceInfo,
  ToolUpdate,
} from '../../../shared/tools.ts';
import type { ToolAppRef } from '../../../shared/mcp-apps.ts';

export interface ToolContext {
  callId: string;
  sessionId: string;
  /** Aborted on timeout, user abort or session close. Tools must stop promptly. */
  signal: AbortSignal;
  /** Contract: may be called any number of times before execute() settles; never throws. */
  onUpdate: (update: ToolUpdate) => void;
  /**
   * The deadline the executor enforces on this call, ms (absent when a tool is called directly).
   * It owns the timeout: a process the tool starts gets a later limit, only as a backstop.
   */
  timeoutMs?: number;
  /**
   * The chat this call belongs to, when there is one (Open WebUI tools get its model, messages
   * and attachments). Contract: cheap, never throws; called once per call at most.
   */
  conversation?: () => ToolConversation;
  /**
   * The folder this call runs in when its conversation has its own (a schedule's --cwd); absent:
   * the working-folder setting the tool was loaded with. Process tools start there.
   */
  workingDir?: string;
}

export interface ToolConversation {
  /** The chat's model id. */
  model?: string;
  /** The chat's messages, oldest first, text only. */
  messages: { role: string; content: string }[];
  /** The chat's attached files (not images), where the app keeps them: tools get copies, never these paths. */
  files?: ConversationFile[];
}

export interface ConversationFile {
  /** The name the user attached it under. */
  name: string;
  /** The app's stored copy (a PDF's is its extracted text). */
  path: string;
  /** The stored copy's type: a PDF's text is text/plain. */
  mediaType: string;
  /** Bytes of the stored copy. */
  size: number;
}

/** What a tool's execute() resolves to. Throwing is allowed too: it becomes an ERROR result. */
export interface ToolRunResult {
  status?: Extract<ToolExecuteStatus, 'SUCCESS' | 'ERROR'>;
  data?: unknown;
  error?: string;
  /** Set when the tool formats its own result (Python `fn.format`). Skips formatForLLM. */
  formattedText?: string;
  /**
   * Structured data as text, when `formattedText` is a summary written for people (an MCP
   * server's text beside its `structuredContent`): cached as `{tool}_{callId}_structured`.
   */
  structuredText?: string;
  logs?: string;
  warnings?: string[];
  /** Images beside the data (MCP image content), base64; kept only for a successful call. */
  images?: Array<{ mimeType: string; data: string }>;
  /** The result is shown as an MCP App (see shared/mcp-apps.ts). */
  app?: ToolAppRef;
}

export interface SessionEvent {
  reason: 'start' | 'switch' | 'shutdown';
  sessionId: string;
}

export interface Tool {
  definition: ToolDefinition;
  permission?: ToolPermission;
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolRunResult>;
  formatForLLM?: (data: unknown, args: Record<string, unknown>) => string;
  truncateForLLM?: (formatted: string, args: Record<string, unknown>) => string;
  SKIP_EXTERNAL_TRUNCATE?: boolean;
  SKIP_CACHE_RESULT?: boolean;
  DEFAULT_OUTPUT_LIMIT_CHAR?: number;
  compressArgs?: (args: Record<string, unknown>) => string;
  compressResult?: (result: unknown) => string;
  declaredReturnType?: DeclaredReturnType;
  /** Where the tool came from (absent for built-ins). */
  source?: ToolSourceInfo;
  /**
   * The folders the tool resolves a relative path against: its process's working folder first,
   * then any other it uses (a module's `ctx.cwd`, a file server's roots). The rules resolve
   * relative path arguments against each; empty means unknown. Absent: the working folder.
   */
  relativeTo?: readonly string[];
  /** Per-tool timeout; the executor's default applies when absent. */
  timeoutMs?: number;
  /**
   * What the model and the user are told when a call passes its deadline: the format's words,
   * naming where this tool's timeout is set. The executor's generic text applies when absent.
   */
  timeoutMessage?: (timeoutMs: number) => string;
  /** Keychain secret names the tool's process needs (as environment variables). */
  secrets?: string[];
  /** Free-form metadata carried to the UI (three-layer meta.json, labels, icons). */
  meta?: Record<string, unknown>;
  /** Session lifecycle hook (module tools). Errors are logged, never fatal. */
  onSession?: (event: SessionEvent) => void | Promise<void>;
  /**
   * "Always allow" of this tool is bound to content, not to the tool's name (a skill's scripts:
   * bound to the digest of every file of that skill). Absent: "always" sets the tool's policy.
   */
  approvalBinding?: ApprovalBinding;
  /** Lines an approval card shows about this call (a skill's origin, flags). Contract: cheap, never throws. */
  approvalDetail?: (args: Record<string, unknown>) => string[];
}

/** See Tool.approvalBinding. Contract: neither method throws. */
export interface ApprovalBinding {
  /**
   * `held`: an "always" given earlier covers this call as its content is now; `changed`: one was
   * given but the content changed (`note` names what, for the card); `none`: never given.
   */
  check(args: Record<string, unknown>): { state: 'held'; label: string } | { state: 'changed'; note: string } | { state: 'none' };
  /** The user said "always" for this call: bind it to the content as it is now. */
  bind(args: Record<string, unknown>): void;
}

export interface SkillRule {
  desc: string;
  prompt: string;
  when?: string;
  alwaysLoad?: boolean;
}

export interface ToolGroup {
  name: string;
  tools: Tool[];
  rulePrompt?: string | ((enabledToolNames: string[]) => string);
  declareSkillRules?: Record<string, SkillRule>;
  /** The group's default permissions (Python `defaultPermissions`, PowerShell TOOL_CONFIG). */
  defaultPermission?: ToolPermission;
  source?: ToolSourceInfo;
  builtin?: boolean;
  /** On unless the settings switch it off (the skills group: each skill has its own switch). */
  enabledByDefault?: boolean;
  /**
   * A built-in group the catalog neither lists nor offers, and no switch, selection or tool set
   * touches: its tools run when called by name, unless a listed tool has that name. FindTools is
   * one (the chat's tool budget offers it itself, chat/tool-calls/find-tools-group.ts).
   */
  unlisted?: boolean;
}

/**
 * Asks the user. Contract: resolves with a decision; rejects never; when `signal` aborts the
 * caller treats the request as rejected and the callback should drop its UI for `request.id`.
 */
export type ApprovalCallback = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;

/** The user's per-tool policy overrides (settings). 'Always allow' writes through here. */
export interface PermissionStore {
  get(toolName: string): ToolPermission | undefined;
  set(toolName: string, permission: ToolPermission): void;
}
