// The API contract (DESIGN.md "one source of truth"): every method as request → Promise<response>
// and one tagged union of events. Handlers, the IPC binding, the preload, the WebSocket server and
// the renderer client are all derived from this file; no side redeclares a payload.
import type { AttachmentUpload, BranchInfo, ChatEvent, ChatMessage, ChatSettings, ErrorValue, SessionInfo, TurnInterruption } from './chat.ts';
import type { SandboxStatus } from './sandbox.ts';
import type { ProviderConfig, Settings, WellKnownRoot } from './settings.ts';
import type { ApprovalDecision, ApprovalRequest, ToolExecuteResult } from './tools.ts';
import type { Variable, VariableInfo, VariableType } from './variables.ts';
import type { ChatToolSelection } from './tool-selection.ts';
import type { McpInteractionAnswer, McpInteractionRequest, McpServerView } from './mcp.ts';
import { APPS_API_METHODS, type AppsApiMethods } from './mcp-apps.ts';
import { PERMISSION_API_METHODS, type PermissionApiMethods } from './api-permissions.ts';
import { MCP_INSTALL_API_METHODS, type McpInstallApiMethods } from './mcp-install.ts';
import { SCHEDULE_API_METHODS, type ScheduleApiEvent, type ScheduleApiMethods } from './api-schedules.ts';
import { SKILL_API_METHODS, type SkillApiMethods } from './api-skills.ts';
import { TOOLS_API_METHODS, type ToolsApiMethods, type ToolsState } from './api-tools.ts';
import { MCP_SERVERS_API_METHODS, type McpServersApiMethods } from './api-mcp-servers.ts';

// ---------------------------------------------------------------------------------------------
// Payloads that only the API uses (the rest come from chat.ts, tools.ts, variables.ts, settings.ts)

/** A session as opened in the UI: its history plus what is in flight. */
export interface SessionSnapshot {
  session: SessionInfo;
  messages: ChatMessage[];
  /** Approval requests still waiting for an answer (shown as cards). */
  pendingApprovals: ApprovalRequest[];
  /** A turn is running (the UI shows Abort). */
  running: boolean;
  /** The chat's own choice of tools; null (or absent) follows the global switches. */
  toolSelection?: ChatToolSelection | null;
  /** Messages of `messages` that have alternatives (Edit, Regenerate), by id. */
  branches?: Record<string, BranchInfo>;
  /** The chat's own model and settings. */
  chat?: ChatSettings;
  /** What MCP servers are asking the user right now (cards). */
  pendingMcpInteractions?: McpInteractionRequest[];
  /** The turn a restart cut off (shown "Interrupted" with Continue and Retry). */
  interrupted?: TurnInterruption;
}

export interface SessionSearchHit {
  session: SessionInfo;
  /** The matching line of a message (or the title), plain text. */
  snippet?: string;
  /** The message the snippet comes from (absent for a title match). */
  messageId?: string;
}

/** One model of a configured provider, for the "Model" picker. */
export interface ModelChoice {
  providerId: string;
  providerName: string;
  model: string;
  /** Tokens, when the provider's model list states it. */
  contextWindow?: number;
}

export interface ModelList {
  models: ModelChoice[];
  /** Providers whose model list could not be read (their configured model is still listed). */
  problems: string[];
}

export type ExportFormat = 'md' | 'json';

export interface VariableSlice {
  variable: VariableInfo;
  /** The requested slice of the value (the whole value when start/length are absent). */
  value: string;
  start: number;
  /** Total length of the value in characters. */
  total: number;
}

export interface ProviderInfo extends ProviderConfig {
  active: boolean;
  /** An API key is stored under its `apiKeySecret` (never the key itself). */
  hasApiKey: boolean;
}

/**
 * The secret name to use for a provider's API key: set it as the config's `apiKeySecret`, then
 * store the key with setSecret. (Chat reads the key only through `apiKeySecret`.)
 */
export const providerKeySecretName = (providerId: string): string => `provider.${providerId.replace(/[^A-Za-z0-9_.-]/g, '_')}.apiKey`;

export interface ProviderTestResult {
  ok: boolean;
  /** What happened, written for the user. */
  message: string;
  models?: string[];
  latencyMs?: number;
}

/** A local model server found running (Ollama, LM Studio), ready to be added as a provider. */
export interface DetectedProvider {
  provider: ProviderConfig;
  models: string[];
}

export interface AppInfo {
  version: string;
  /** The renderer talks over WebSocket (browser mode) rather than Electron IPC. */
  browserMode: boolean;
  platform: string;
  home: string;
  /** Shown persistently when `warning` is set. */
  sandbox: SandboxStatus;
  /** Where secrets go: the OS keychain, memory for this run only ('session'), or nowhere. */
  secrets: { backend: 'keyring' | 'session' | 'none'; detail?: string };
  /** Problems found while starting or since (a corrupt or invalid settings file replaced …). */
  warnings?: string[];
  /** The folder your own tools go in ("New tool" writes there): the first tool root, else `tools` in the home. */
  toolsFolder?: string;
  /** Where each well-known folder of the other projects is on this machine (project ones under the working folder). */
  wellKnownFolders?: Partial<Record<WellKnownRoot, string>>;
}

// ---------------------------------------------------------------------------------------------
// Methods

type Empty = Record<string, never>;

/** Every method: its request and its response. Responses are JSON values (null, never undefined). */
export interface ApiMethods extends ToolsApiMethods, McpServersApiMethods, AppsApiMethods, PermissionApiMethods, McpInstallApiMethods, ScheduleApiMethods, SkillApiMethods {
  // sessions
  listSessions: { request: Empty; response: SessionInfo[] };
  /** Stored at once; the app creates a session when its first message is sent (an empty one is not listed). */
  createSession: { request: { title?: string; chat?: ChatSettings }; response: SessionInfo };
  openSession: { request: { sessionId: string }; response: SessionSnapshot };
  renameSession: { request: { sessionId: string; title: string }; response: SessionInfo };
  /** Pins or archives a chat (an absent flag stays as it is). */
  setSessionFlags: { request: { sessionId: string; pinned?: boolean; archived?: boolean }; response: SessionInfo };
  deleteSession: { request: { sessionId: string }; response: null };
  searchSessions: { request: { query: string }; response: SessionSearchHit[] };
  // chat
  /**
   * Resolves when the turn is accepted; progress arrives as events, its end as `session.turn` finished.
   * `messageId` (chosen by the client) makes a resend after a lost connection safe: a message
   * already stored under it starts nothing. `attachments`: files sent with the message.
   * `/server:prompt name=value …` (a configured MCP server's name, a colon) runs that prompt and
   * sends what it returns as the message; a missing required argument is an InvalidRequestError.
   */
  sendMessage: { request: { sessionId: string; text: string; messageId?: string; attachments?: AttachmentUpload[] }; response: { turnId: string } };
  /** Edit a user message and resend from there; the old message and what followed stay as a branch. */
  editMessage: { request: { sessionId: string; messageId: string; text: string }; response: { turnId: string } };
  /** Answer again from the user message before `messageId` (Regenerate, Retry); the old answer stays as a branch. */
  regenerate: { request: { sessionId: string; messageId: string }; response: { turnId: string } };
  /** Continue the turn a restart interrupted (snapshot `interrupted`): its calls are asked again, then the model goes on. */
  continueTurn: { request: { sessionId: string }; response: { turnId: string } };
  /** Show the branch holding `messageId` (its newest continuation). */
  switchBranch: { request: { sessionId: string; messageId: string }; response: null };
  deleteMessage: { request: { sessionId: string; messageId: string }; response: null };
  /** Replaces the chat's own model and settings; a model choice also becomes the one new chats start with. */
  setChatSettings: { request: { sessionId: string; chat: ChatSettings }; response: ChatSettings };
  /** Every model of every configured provider (the "Model" picker). */
  listAllModels: { request: Empty; response: ModelList };
  /** The session as Markdown (tool calls as collapsible blocks) or JSON. */
  exportSession: { request: { sessionId: string; format: ExportFormat }; response: { fileName: string; content: string } };
  /** Aborts the running turn; pending approvals of the session are rejected. */
  abort: { request: { sessionId: string }; response: null };
  answerApproval: { request: { sessionId: string; requestId: string; decision: ApprovalDecision }; response: null };
  /** Answers an MCP server's form, URL or sampling request shown as a card. */
  answerMcpInteraction: { request: { sessionId: string; requestId: string; answer: McpInteractionAnswer }; response: null };
  /**
   * Cancels one running tool call (the callId of its `tool.started` event), from a turn or a
   * manual run: it ends with an ERROR result saying it was cancelled; the turn goes on.
   * False when the call is no longer running.
   */
  cancelToolCall: { request: { sessionId: string; callId: string }; response: boolean };
  /**
   * "Run again": re-runs a finished call of the session (its callId) with the same arguments, or
   * `args`; approval as usual. The new call is recorded under the first (`rerunOf`) and the model
   * sees its result on its next turn. Refused while a turn runs.
   */
  rerunToolCall: { request: { sessionId: string; callId: string; args?: Record<string, unknown> }; response: ToolExecuteResult };
  /** Checks arguments as a call would ($VAR_REF, the tool's schema) without running: the edit form's live validation. */
  checkToolArgs: { request: { sessionId: string; name: string; args: Record<string, unknown> }; response: { ok: boolean; message?: string } };
  /** An image a tool call returned, from the session's copy (`stored` of the result's `images`). */
  readToolImage: { request: { sessionId: string; stored: string }; response: { mimeType: string; data: string } };
  /** Stores the chat's choice of tools with the session (null: back to the global switches). */
  setToolSelection: { request: { sessionId: string; selection: ChatToolSelection | null }; response: ChatToolSelection | null };
  // variables
  listVariables: { request: { sessionId: string; type?: VariableType; search?: string }; response: VariableInfo[] };
  readVariable: { request: { sessionId: string; name: string; start?: number; length?: number }; response: VariableSlice };
  deleteVariable: { request: { sessionId: string; name: string }; response: null };
  // settings
  getSettings: { request: Empty; response: Settings };
  /**
   * Shallow patch of top-level keys, saved as one write with one `settings.changed`; the store
   * validates values. `secrets` (name → value, null deletes) are stored with it, all or nothing:
   * a provider and its API key are saved in one call. Resolves with the new settings.
   */
  setSettings: { request: { patch: Partial<Settings>; secrets?: Record<string, string | null> }; response: Settings };
  // providers
  listProviders: { request: Empty; response: ProviderInfo[] };
  /** Tests a provider (saved by id, or an unsaved config with an optional key). */
  testProvider: { request: { providerId?: string; provider?: ProviderConfig; apiKey?: string }; response: ProviderTestResult };
  listModels: { request: { providerId?: string; provider?: ProviderConfig; apiKey?: string }; response: string[] };
  detectLocalProviders: { request: Empty; response: DetectedProvider[] };
  // secrets (values go in, never come out)
  setSecret: { request: { name: string; value: string }; response: null };
  deleteSecret: { request: { name: string }; response: null };
  hasSecret: { request: { name: string }; response: boolean };
  // app
  appInfo: { request: Empty; response: AppInfo };
}

export type ApiMethodName = keyof ApiMethods;
export type ApiRequest<M extends ApiMethodName> = ApiMethods[M]['request'];
export type ApiResponse<M extends ApiMethodName> = ApiMethods[M]['response'];

/** The method names at runtime: preload, IPC binding, server and client are generated from it. */
export const API_METHODS = [
  'listSessions',
  'createSession',
  'openSession',
  'renameSession',
  'setSessionFlags',
  'deleteSession',
  'searchSessions',
  'sendMessage',
  'editMessage',
  'regenerate',
  'continueTurn',
  'switchBranch',
  'deleteMessage',
  'setChatSettings',
  'listAllModels',
  'exportSession',
  'abort',
  'answerApproval',
  'answerMcpInteraction',
  'cancelToolCall',
  'rerunToolCall',
  'checkToolArgs',
  'readToolImage',
  'setToolSelection',
  ...TOOLS_API_METHODS,
  'listVariables',
  'readVariable',
  'deleteVariable',
  'getSettings',
  'setSettings',
  'listProviders',
  'testProvider',
  'listModels',
  'detectLocalProviders',
  'setSecret',
  'deleteSecret',
  'hasSecret',
  ...MCP_SERVERS_API_METHODS,
  'appInfo',
  ...APPS_API_METHODS,
  ...PERMISSION_API_METHODS,
  ...MCP_INSTALL_API_METHODS,
  ...SCHEDULE_API_METHODS,
  ...SKILL_API_METHODS,
] as const satisfies readonly ApiMethodName[];

// Compile-time check that API_METHODS lists every method exactly (a missing one fails here).
type MissingMethods = Exclude<ApiMethodName, (typeof API_METHODS)[number]>;
const _allMethodsListed: MissingMethods extends never ? true : MissingMethods = true;
void _allMethodsListed;

export function isApiMethod(name: unknown): name is ApiMethodName {
  return typeof name === 'string' && (API_METHODS as readonly string[]).includes(name);
}

// ---------------------------------------------------------------------------------------------
// Events

export type ApiEvent =
  | ChatEvent
  | { type: 'tools.changed'; tools: ToolsState }
  | { type: 'settings.changed'; settings: Settings }
  /** An MCP server's state changed (starting, ready, failed, added, removed, switched). */
  | { type: 'mcp.changed'; servers: McpServerView[] }
  /** The session list changed (created, renamed, deleted, new message updates ordering). */
  | { type: 'sessions.changed'; sessions: SessionInfo[] }
  | ScheduleApiEvent;

export type ApiEventType = ApiEvent['type'];

/** Contract: called synchronously for each event in order; must not throw. Returns nothing. */
export type ApiEventListener = (event: ApiEvent) => void;

// ---------------------------------------------------------------------------------------------
// The interface the renderer sees (window.tooldesk, or the WebSocket client: same shape)

type MethodFn<M extends ApiMethodName> = Empty extends ApiRequest<M>
  ? (request?: ApiRequest<M>) => Promise<ApiResponse<M>>
  : (request: ApiRequest<M>) => Promise<ApiResponse<M>>;

export type TooldeskApi = { [M in ApiMethodName]: MethodFn<M> } & {
  /** Subscribes to every event; returns the unsubscribe function. */
  onEvent(listener: ApiEventListener): () => void;
};

/** The host side: one function per method, taking the validated request. */
export type ApiHandlers = { [M in ApiMethodName]: (request: ApiRequest<M>) => Promise<ApiResponse<M>> };

// ---------------------------------------------------------------------------------------------
// Transport: results and errors as values

export { API_ERRORS, ApiError, apiError, toErrorValue, type ApiResult } from './api-errors.ts';
import type { ApiResult } from './api-errors.ts';

// WebSocket frames (browser mode). IPC needs no framing: ipcRenderer.invoke already pairs them.
export type ClientFrame = { id: number; method: string; request?: unknown };
export type ServerFrame = ({ id: number } & ApiResult) | { event: ApiEvent };

/** Limits shared by both transports. */
export const API_LIMITS = {
  /** Largest request accepted, over the WebSocket and over IPC (bytes of its JSON). */
  maxMessageBytes: 4 * 1024 * 1024,
  /** Longest chat message text (characters). */
  maxTextChars: 1_000_000,
  /** Longest short string: names, ids, titles (characters). */
  maxNameChars: 512,
} as const;

// Re-exported so the renderer can import every API payload from one module.
export type { ApprovalDecision, ApprovalRequest, AttachmentUpload, ChatEvent, ChatMessage, ErrorValue, SandboxStatus, SessionInfo, Variable, VariableInfo };
export type { McpImportPreview, McpServerView } from './mcp.ts';
export type { AuthoringFormat, CreatedTool, ToolFiles, ToolsState } from './api-tools.ts';

// Electron IPC: one channel per method, one for events. The bridge's methods resolve with ApiResult
// values (Electron keeps only an Error's message across IPC; the renderer client rebuilds them).
export const IPC_EVENT_CHANNEL = 'tooldesk:event';
export const ipcChannel = (method: ApiMethodName): string => `tooldesk:${method}`;

/** What `window.tooldesk` is in the Electron app (see renderer/src/api for the TooldeskApi over it). */
export type TooldeskBridge = { [M in ApiMethodName]: (request?: ApiRequest<M>) => Promise<ApiResult<ApiResponse<M>>> } & {
  onEvent(listener: ApiEventListener): () => void;
};
