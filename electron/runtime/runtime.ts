// What a runtime is: the options it is made with and the parts it offers, each built on first use
// (create-runtime.ts builds them; callers import these types from there). The Electron app,
// `tooldesk serve` and every CLI command hold one, and ask only for the parts they use.
import type { SandboxStatus } from '../../shared/sandbox.ts';
import type { Settings } from '../../shared/settings.ts';
import type { SessionManager } from './chat/persistence/session-manager.ts';
import type { Host, HostOptions } from './host/create-host.ts';
import type { McpServer, McpServerOptions } from './host/mcp-server/mcp-server.ts';
import type { McpStartMode } from './mcp-wiring.ts';
import type { ProviderResolution } from './llm/resolve-provider.ts';
import type { AppPaths } from './paths.ts';
import type { Scheduler, SchedulerClock } from './schedules/scheduler.ts';
import type { ToolRoot } from './sources/discovery/tool-roots.ts';
import type { McpInteractions, McpManager } from './sources/mcp/index.ts';
import type { PythonPreloadReport } from './sources/process/python-preloads.ts';
import type { SkillSource } from './sources/skills/index.ts';
import type { SkillAdmin } from './sources/skills/skill-admin.ts';
import type { HelperPools } from './sources/source-context.ts';
import type { SecretStore, SecretStoreOptions } from './store/secret-store.ts';
import type { SettingsBackendFactory } from './store/settings-backend.ts';
import type { SettingsStore } from './store/settings-store.ts';
import type { RuleBook } from './tools/rules/rule-book.ts';
import type { ToolSession, ToolSessionOptions } from './tools/tool-session.ts';
import type { ToolGroupSource } from './tools/tools-change.ts';
import type { Tool } from './tools/types.ts';

export interface RuntimeToolOptions {
  /** Load these folders (user roots) instead of the settings' roots (the CLI's --root). */
  roots?: string[];
  /** The project folder for relative roots and project roots (default: settings.workingDir, else the user's home). */
  cwd?: string;
  /** Watch the tool folders and reload on change (default false). */
  watch?: boolean;
  /** Serve declared secrets to script tools that fetch them (Agenvoy's key endpoint); default false. */
  keyEndpoint?: boolean;
  /** MCP servers (settings.mcpServers): which start, and when (mcp-wiring.ts McpStartMode). Default `lazy`. */
  mcp?: McpStartMode;
  /** What a server may ask the user (elicitation forms) where no chat card can show it (the CLI's terminal). */
  mcpInteractions?: McpInteractions;
  /** Opens a URL in the user's browser (MCP OAuth sign-in); without it, stored tokens still work. */
  openUrl?: (url: string) => Promise<boolean>;
}

/** What `runtime.mcp()` builds: which servers, and how they may reach the user. */
export interface RuntimeMcpOptions {
  /** Only the servers of these names (`mcp logs NAME --start` starts that one alone). */
  only?: string[];
  /** What a server may ask the user; without it the server is told the client cannot ask. */
  interactions?: McpInteractions;
  /** Opens a URL in the user's browser (OAuth sign-in); without it, stored tokens still work. */
  openUrl?: (url: string) => Promise<boolean>;
}

export interface RuntimeOptions {
  /** TOOLDESK_HOME. */
  home: string;
  /** electron-store in the app; conf (default) elsewhere. */
  settingsBackend?: SettingsBackendFactory;
  /** Pick up settings written by another process (the CLI while the app runs). */
  watchSettings?: boolean;
  /** A ready secret store (tests: `new SecretStore({keyring: sessionBackend()})`), else one made with `secretOptions`. */
  secrets?: SecretStore;
  secretOptions?: SecretStoreOptions;
  /** Keep secrets in memory for this run when no keychain exists (the app and browser mode). */
  sessionSecretsFallback?: boolean;
  /** How tools are found; false: this runtime has no tools (sessions without tools). */
  tools?: RuntimeToolOptions | false;
  /** Replaces settings-based provider resolution for chat (the CLI's --base-url; tests' fake server). */
  provider?: (settings: Settings, secrets: SecretStore) => Promise<ProviderResolution>;
  log?: (message: string) => void;
  /** The schedules' clock (tests); default Date.now. */
  clock?: SchedulerClock;
}

/** The loaded tools: every source as one, and what is needed to edit and run them. */
export interface RuntimeTools {
  source: ToolGroupSource;
  /** The roots being loaded, in order (user roots first). */
  roots(): ToolRoot[];
  /** Re-reads the folders holding `paths` (tool authoring wrote them). */
  reloadPaths(paths: string[]): Promise<unknown>;
  /** The MCP servers (absent with `mcp: false`): their states for Settings, restart. */
  mcp?: McpManager;
  /** The skills (Agent Skills folders and MCP servers' skills); their group is among `source`'s. */
  skills: SkillSource;
}

export interface Runtime {
  readonly home: string;
  readonly paths: AppPaths;
  readonly settings: SettingsStore;
  readonly secrets: SecretStore;
  /** Problems found while starting (corrupt settings replaced, no keyring, …), for the caller to show. */
  readonly warnings: string[];
  /** The tool roots the settings (or the --root override) name; loads nothing. */
  toolRoots(): ToolRoot[];
  sandboxStatus(): SandboxStatus;
  /** What each Python tool folder's warm fork-server imports before forking, and what it leaves out (`tools check`). */
  pythonPreloads(tools: readonly Tool[]): Promise<{ reports: PythonPreloadReport[]; note?: string }>;
  /** Loads the tools on first call. */
  tools(): Promise<RuntimeTools>;
  /** The skills, read once (watched when the tools are); the same source the tools use. */
  skills(): Promise<SkillSource>;
  /** Check, install, remove skills and their dependencies. */
  skillAdmin(): Promise<SkillAdmin>;
  /**
   * The MCP servers, for the commands about the servers themselves (`mcp list --status`, `mcp logs
   * --start`). Without `only`, in a runtime whose tools have MCP, the tools' own manager (never two
   * processes of one server); otherwise a manager of its own, made at each call and closed with the
   * runtime. Switched-off servers are never started by either.
   */
  mcp(options?: RuntimeMcpOptions): Promise<McpManager>;
  /**
   * Loads the tools on first call and opens a conversation's ToolSession over them, the settings'
   * switches and permissions, kept in step with both until its close(). Every opener goes through
   * here (`tools run`, the benchmarks) or through the same factory (chats, the Tools panel, each
   * `mcp serve` connection). The runtime closes the ones still open when it closes.
   */
  toolSession(options: ToolSessionOptions): Promise<ToolSession>;
  /**
   * `tooldesk mcp serve` over this runtime's tools: one ToolSession per connection, the one audit
   * log, a tool's questions routed to the client of its call. The CLI only parses and prints.
   */
  mcpServer(options: McpServerOptions): Promise<McpServer>;
  /** The session manager (with the tools, unless the runtime has none). */
  sessions(): Promise<SessionManager>;
  /** Tool rules and sets of the settings, compiled, and the audit log (one per runtime). */
  rules(): RuleBook;
  /** The warm-Python and module-host pools this runtime owns (undefined until its tools load); tests look inside. */
  helpers(): HelperPools | undefined;
  /** The API handlers and event stream over everything above (the app and `serve`). */
  host(options: HostOptions): Promise<Host>;
  /** The schedules (one instance, closed with the runtime); `start()` it to run them on time. */
  scheduler(): Promise<Scheduler>;
  /** Stops everything that was started, newest first. Idempotent. */
  close(): Promise<void>;
}
