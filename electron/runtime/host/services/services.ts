// What the API handlers are written against: one interface per side of the runtime. The
// adapters (session-service, tool-service, settings-service, provider-service) implement them
// over the real parts; tests pass fakes.
import type { AppService } from '../apps/app-service.ts';
import type { ScheduleService } from '../../schedules/schedule-service.ts';
import type { SkillsService } from '../skills/skills-service.ts';
import type { NewToolFormat } from '../../../../shared/new-tool-formats.ts';
import type { AppInfo, CreatedTool, DetectedProvider, ProviderTestResult, SessionSearchHit, SessionSnapshot, ToolFiles, ToolsState, VariableSlice } from '../../../../shared/api.ts';
import type { ChatEvent, ChatSettings, SessionFlags, SessionInfo } from '../../../../shared/chat.ts';
import type { AttachmentUpload, ExportFormat } from '../../../../shared/api.ts';
import type { ProviderConfig, Settings } from '../../../../shared/settings.ts';
import type { ModelInfo } from '../../llm/types.ts';
import type { ApprovalDecision, ToolExecuteResult } from '../../../../shared/tools.ts';
import type { VariableInfo, VariableType } from '../../../../shared/variables.ts';
import type { ChatToolSelection } from '../../../../shared/tool-selection.ts';
import type { McpImportPreview, McpListing, McpPromptInfo, McpResourceInfo, McpServerView } from '../../../../shared/mcp.ts';
import type { McpInteractionAnswer } from '../../../../shared/mcp.ts';

/** The chat side (the session manager behind an adapter). */
export interface SessionService {
  list(): Promise<SessionInfo[]>;
  create(title?: string, chat?: ChatSettings): Promise<SessionInfo>;
  open(sessionId: string): Promise<SessionSnapshot>;
  rename(sessionId: string, title: string): Promise<SessionInfo>;
  setFlags(sessionId: string, flags: SessionFlags): Promise<SessionInfo>;
  delete(sessionId: string): Promise<void>;
  search(query: string): Promise<SessionSearchHit[]>;
  /**
   * `messageId` makes a resend idempotent; attachments are stored before the turn starts.
   * `prompt`: the text is what that `/server:prompt` returned, taken as it is.
   */
  send(sessionId: string, text: string, options?: { messageId?: string; attachments?: AttachmentUpload[]; prompt?: string }): Promise<{ turnId: string }>;
  edit(sessionId: string, messageId: string, text: string): Promise<{ turnId: string }>;
  regenerate(sessionId: string, messageId: string): Promise<{ turnId: string }>;
  /** Continues the turn a restart interrupted. */
  continueTurn(sessionId: string): Promise<{ turnId: string }>;
  switchBranch(sessionId: string, messageId: string): Promise<void>;
  deleteMessage(sessionId: string, messageId: string): Promise<void>;
  setChatSettings(sessionId: string, chat: ChatSettings): Promise<ChatSettings>;
  export(sessionId: string, format: ExportFormat): Promise<{ fileName: string; content: string }>;
  abort(sessionId: string): Promise<void>;
  /** False when no such request is pending. */
  answerApproval(sessionId: string, requestId: string, decision: ApprovalDecision): Promise<boolean>;
  /** False when no such request is pending (answered, or its call ended). Absent: MCP requests are not shown here. */
  answerMcpInteraction?(sessionId: string, requestId: string, answer: McpInteractionAnswer): Promise<boolean>;
  /** False when no such call is running. */
  cancelToolCall(sessionId: string, callId: string): Promise<boolean>;
  runTool(sessionId: string, name: string, args: Record<string, unknown>): Promise<ToolExecuteResult>;
  rerunToolCall(sessionId: string, callId: string, args?: Record<string, unknown>): Promise<ToolExecuteResult>;
  checkToolArgs(sessionId: string, name: string, args: Record<string, unknown>): Promise<{ ok: boolean; message?: string }>;
  setToolSelection(sessionId: string, selection: ChatToolSelection | null): Promise<ChatToolSelection | null>;
  /** A tool call's image kept by the session; null when no call of the session has it (or its file is gone). */
  readToolImage?(sessionId: string, stored: string): Promise<{ mimeType: string; data: string } | null>;
  variables(sessionId: string): Promise<VariableAccess>;
  /** Contract: listeners are called synchronously; returns the unsubscribe function. */
  onEvent(listener: (event: ChatEvent) => void): () => void;
  /** Contract: called after sessions changed on disk, by this process or another (the CLI); returns a disposer. */
  onListChanged?(listener: () => void): () => void;
}

/** A session's variables, as the Variables panel needs them. */
export interface VariableAccess {
  list(filter: { type?: VariableType; search?: string }): VariableInfo[];
  /** `length` code points of the value from code point `start` (clamped); undefined when there is no such variable. */
  read(name: string, start?: number, length?: number): VariableSlice | undefined;
  /** False when it does not exist; throws for RULE variables (not deletable). */
  remove(name: string): boolean;
}

/** The tools side (the tool registry + authoring behind an adapter). */
export interface ToolService {
  state(): ToolsState;
  reload(): Promise<ToolsState>;
  create(format: NewToolFormat, name: string, files?: Record<string, string>): Promise<CreatedTool>;
  read(name: string): Promise<ToolFiles>;
  update(name: string, files: Record<string, string>): Promise<ToolFiles>;
  delete(name: string): Promise<void>;
  onChanged(listener: (state: ToolsState) => void): () => void;
}

export interface SettingsService {
  get(): Settings;
  /** Top-level keys replace (the API's patch is shallow); one write, one change event; throws on invalid values. */
  patch(patch: Partial<Settings>): Settings;
  /** Throws what patch would throw for invalid values, writing nothing. */
  check(patch: Partial<Settings>): void;
  setGroupEnabled(group: string, enabled: boolean): void;
  setToolEnabled(tool: string, enabled: boolean): void;
  onDidChange(listener: (settings: Settings) => void): () => void;
}

export interface ProviderService {
  test(provider: ProviderConfig, apiKey: string | null): Promise<ProviderTestResult>;
  listModels(provider: ProviderConfig, apiKey: string | null): Promise<ModelInfo[]>;
  detectLocal(): Promise<DetectedProvider[]>;
}

/** Settings → MCP servers (see mcp-service.ts). */
export interface McpService {
  list(): McpServerView[];
  add(request: { name: string; command?: string; args?: unknown; url?: string }): Promise<McpServerView[]>;
  remove(name: string): Promise<McpServerView[]>;
  restart(name: string): Promise<McpServerView[]>;
  previewImport(): McpImportPreview;
  /** `answers`: VS Code inputs by the secret they are stored as; `allowSecrets`: foreign references the user allowed. */
  allowWrite(name: string, folder: string): Promise<McpServerView[]>;
  setArgFoldersWritable(name: string, writable: boolean): Promise<McpServerView[]>;
  importServers(names: unknown, answers?: Record<string, string>, allowSecrets?: string[]): Promise<McpServerView[]>;
  /** Prompts of the switched-on servers (the `/` menu). */
  prompts(): Promise<McpListing<McpPromptInfo>>;
  /**
   * `/server:prompt a=1 b="x y"` run with prompts/get, as the user's turn; null when the text does
   * not start with a configured server's name and a colon. Throws what is wrong for the user to fix.
   */
  promptTurn(text: string, signal?: AbortSignal): Promise<{ text: string; attachments: AttachmentUpload[] } | null>;
  /** Resources of the switched-on servers ("Attach resource"). */
  resources(): Promise<McpListing<McpResourceInfo>>;
  /** One resource as an attachment for the next message (bounded). */
  readResource(server: string, uri: string): Promise<AttachmentUpload>;
  onChanged(listener: (servers: McpServerView[]) => void): () => void;
  close(): void;
}

export type { ValvesService } from './valves-service.ts';
import type { ValvesService } from './valves-service.ts';
import type { McpInstallService } from './mcp-install-service.ts';

export interface SecretService {
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<boolean>;
  exists(name: string): Promise<boolean>;
  get(name: string): Promise<string | null>;
}

export interface HostServices {
  sessions: SessionService;
  tools: ToolService;
  settings: SettingsService;
  providers: ProviderService;
  secrets: SecretService;
  /** Settings → MCP servers; absent: the methods say MCP is not available here. */
  mcp?: McpService;
  /** "Install bundle…" and "Browse servers" (Settings → MCP servers); absent: not available here. */
  mcpInstall?: McpInstallService;
  /** Open WebUI Valves (Settings → Tool groups); absent: not available here. */
  valves?: ValvesService;
  /** MCP Apps in tool-call blocks; absent: the methods say apps are not available here. */
  apps?: AppService;
  appInfo(): Promise<AppInfo>;
  /** Where the audit log is (TOOLDESK_HOME/audit); absent: listAudit answers nothing. */
  auditDir?: string;
  /** Settings → Schedules and the Inbox; absent: the methods say schedules are not available here. */
  schedules?: ScheduleService;
  /** Settings → Skills; absent: the methods say skills are not available here. */
  skills?: SkillsService;
}
