// The settings document: one JSON file under TOOLDESK_HOME, shared by the app and the CLI.
import type { ToolPermission } from './tools.ts';
import type { ToolRule, ToolSet } from './permissions.ts';
import type { ScheduleConfig, ScheduleLimits } from './schedules.ts';

export type SandboxMode = 'auto' | 'required' | 'off';

export interface ProviderConfig {
  id: string;
  name: string;
  kind: 'openai-compatible';
  baseURL: string;
  model: string;
  headers?: Record<string, string>;
  temperature?: number;
  /** Sent only when set. */
  maxTokens?: number;
  /**
   * The request field that carries maxTokens. Default: `max_completion_tokens` for api.openai.com
   * (its newer and reasoning models refuse `max_tokens`), `max_tokens` elsewhere. A server that
   * refuses the one sent is asked again with the other.
   */
  maxTokensParam?: 'max_tokens' | 'max_completion_tokens';
  /** Keychain entry holding the API key (never the key itself). */
  apiKeySecret?: string;
}

/** Folders of other projects scanned when present and switched on. */
export type WellKnownRoot = 'agenvoyHome' | 'agenvoyProject' | 'ompHome' | 'ompProject';

export interface Limits {
  /** Default timeout for module (Python/PowerShell) tools, ms. */
  toolTimeoutMs: number;
  /** Default truncation limit of tool output sent to the model, characters. */
  truncateChars: number;
  /** Cap on each of stdout/stderr of a tool process, bytes. */
  outputCapBytes: number;
  /** Agent loop step bound per turn. */
  maxSteps: number;
  variableMaxEntries: number;
  variableMaxBytes: number;
  /** Process-count bound of a tool run (Linux; with or without the sandbox). */
  maxProcesses: number;
  /** Writable-memory bound (RLIMIT_DATA, not address space) of a tool process, bytes (Linux). */
  maxMemoryBytes: number;
  /**
   * Characters the enabled tools' definitions may take in one request. Above it, a request carries
   * ReadVar/ListVars, the chat's pinned tools and FindTools instead of every definition.
   */
  toolDefinitionBudgetChars: number;
  /** A tool source (module, script, tool.json) larger than this gets a diagnostic and is not read, bytes. */
  toolSourceMaxBytes: number;
  /** How long an MCP server may take from spawn to its tool list, ms (a server's `startTimeoutMs` overrides). */
  mcpStartTimeoutMs: number;
}

/** Tooldesk's own per-server fields, beside the ones Claude Desktop / Cursor configs carry. */
export interface McpServerOptions {
  /** False hides the server entirely (it never starts); default true. */
  enabled?: boolean;
  /** Per-call timeout, ms (reset by progress notifications); default 60 000. */
  timeoutMs?: number;
  /** From spawn to its tool list, ms; default `limits.mcpStartTimeoutMs` (30 000). */
  startTimeoutMs?: number;
  /** Trusted servers' tool annotations set default policies; others' are shown but ignored. */
  trust?: boolean;
}

/** A local server started as a child process, spoken to over stdio. */
export interface McpStdioServerConfig extends McpServerOptions {
  type?: 'stdio';
  command: string;
  args?: string[];
  /** Values may hold `${secret:NAME}` references to keychain entries. */
  env?: Record<string, string>;
  cwd?: string;
  /** `auto` (default): sandboxed where possible, network allowed, home read-only. */
  sandbox?: 'auto' | 'off';
  /** Folders the server may write to under the sandbox. */
  writable?: string[];
}

/** A remote server: Streamable HTTP, or the legacy HTTP+SSE transport (`type: "sse"`). */
export interface McpHttpServerConfig extends McpServerOptions {
  type?: 'http' | 'streamable-http' | 'sse';
  url: string;
  /** Values may hold `${secret:NAME}` references to keychain entries. */
  headers?: Record<string, string>;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

export interface Settings {
  providers: ProviderConfig[];
  activeProviderId: string | null;
  systemPrompt: string;
  /** Ordered tool roots; an empty list means the default `TOOLDESK_HOME/tools`. */
  toolRoots: string[];
  wellKnownRoots: Record<WellKnownRoot, boolean>;
  /**
   * Project tool folders the user approved (absolute paths, e.g. `/home/me/proj/.omp/tools`). A
   * project folder (`.omp/tools`, `.config/agenvoy/tools/script` under the working folder) loads
   * nothing until its path is listed here: anyone who could write the project could plant one.
   */
  trustedProjectFolders: string[];
  groupDefaults: Record<string, boolean>;
  toolDefaults: Record<string, boolean>;
  /** The user's per-tool policy overrides; they win over everything the tool declares. */
  permissionOverrides: Record<string, ToolPermission>;
  sandbox: {
    mode: SandboxMode;
    /** Per-tool mode chosen by the user (a tool cannot choose its own). */
    perTool: Record<string, SandboxMode>;
    /** Seed 001 lets scripts write under $HOME; off by default. */
    allowHomeWrite: boolean;
  };
  limits: Limits;
  /** Python interpreter; null = `python3` (`python` on Windows). */
  pythonPath: string | null;
  /** Extra environment variables given to tool processes. */
  extraEnv: Record<string, string>;
  /** Working folder for script tools; null = the user's home. */
  workingDir: string | null;
  /** Also serve Agenvoy's key endpoint on localhost:17989. */
  agenvoyKeyCompat: boolean;
  runner: RunnerSettings;
  /** MCP servers by name (each one is a tool group); checked per server, see sources/mcp/server-config.ts. */
  mcpServers: Record<string, McpServerConfig>;
  /** An MCP registry (v0.1 API, e.g. a subregistry) for `tooldesk mcp search` and `mcp install NAME`; null: none. */
  mcpRegistry: { url: string | null };
  /** The model last picked in a chat's "Model" picker: new chats start with it. */
  lastChatModel: { providerId: string; model: string } | null;
  /** Saved "Chat settings" ("Save as preset"), offered when setting up a chat. */
  chatPresets: ChatPreset[];
  /** Ordered rules on calls' arguments (deny > ask > allow), checked before a tool's policy. */
  toolRules?: ToolRule[];
  /** Named tool sets for chats and `mcp serve --toolset`. */
  toolSets?: ToolSet[];
  /** The identity (command + args, or URL) of each MCP server its tools' approvals were given for. */
  serverBindings?: Record<string, string>;
  /** More folders holding skill folders (Agent Skills), on top of the user and project ones. */
  skillRoots?: string[];
  /** Per skill (by its id, `label:name` when qualified): switched on or off, network granted. */
  skills?: Record<string, SkillSettings>;
  /** Prompts that run on a schedule, unattended; each entry checked by runtime/schedules/schedule-config.ts. */
  schedules?: ScheduleConfig[];
  /** Bounds of every scheduled run (defaults: DEFAULT_SCHEDULE_LIMITS). */
  scheduleLimits?: Partial<ScheduleLimits>;
}

/** What the user chose for one skill. */
export interface SkillSettings {
  /** Absent: on for skills of the user's folders and `skillRoots`, off for project and MCP ones. */
  enabled?: boolean;
  /** The skill's scripts may use the network (off unless granted here). */
  network?: boolean;
  /** A tool set (settings.toolSets) made from the skill's `allowed-tools`, active while the skill is. */
  toolSet?: string;
}

export interface ChatPreset {
  name: string;
  systemPrompt?: string;
  temperature?: number;
  maxTokens?: number;
}

export interface RunnerSettings {
  /**
   * Serve Python tool calls from a warm fork-server inside the sandbox (Linux): each call is still
   * a fresh process, started by a fork instead of an interpreter start. Off: every call starts Python.
   */
  warmPython: boolean;
  /**
   * Warm dependency imports: each fork-server imports, before forking, the installed modules its
   * folder's tools import at top level (never one a tool folder or a writable folder holds).
   * Default on.
   */
  preloadImports?: boolean;
  /** A module whose import takes longer than this is not preloaded, ms (default 2000). */
  preloadMaxMs?: number;
}

export const DEFAULT_LIMITS: Limits = {
  toolTimeoutMs: 30_000,
  truncateChars: 8000,
  outputCapBytes: 1024 * 1024,
  maxSteps: 25,
  variableMaxEntries: 1000,
  variableMaxBytes: 64 * 1024 * 1024,
  maxProcesses: 256,
  maxMemoryBytes: 2 * 1024 * 1024 * 1024,
  toolDefinitionBudgetChars: 24_000,
  toolSourceMaxBytes: 5 * 1024 * 1024,
  mcpStartTimeoutMs: 30_000,
};

export function defaultSettings(): Settings {
  return {
    providers: [],
    activeProviderId: null,
    systemPrompt: '',
    toolRoots: [],
    wellKnownRoots: { agenvoyHome: true, agenvoyProject: true, ompHome: true, ompProject: true },
    trustedProjectFolders: [],
    groupDefaults: {},
    toolDefaults: {},
    permissionOverrides: {},
    sandbox: { mode: 'auto', perTool: {}, allowHomeWrite: false },
    limits: { ...DEFAULT_LIMITS },
    pythonPath: null,
    extraEnv: {},
    workingDir: null,
    agenvoyKeyCompat: false,
    runner: { warmPython: true },
    mcpServers: {},
    mcpRegistry: { url: null },
    lastChatModel: null,
    chatPresets: [],
    toolRules: [],
    toolSets: [],
  };
}
