// The composition root: settings, secrets, tool sources, sessions and the API host are built
// here and nowhere else. The Electron app, `tooldesk serve` and every CLI command call
// createRuntime and ask for the parts they use (parts are built on first use, once), so
// `tools list` starts no watcher and no key endpoint, and `sessions list` loads no tools.
// A new kind of tool source is one more entry in `groupSources` below. Each part's modules are
// imported when the part is first built: `sessions list` loads no tool, MCP or ajv code, and
// `tools list` no chat code.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { SandboxStatus } from '../../shared/sandbox.ts';
import type { Settings } from '../../shared/settings.ts';
import type { SessionManager } from './chat/session-manager.ts';
import { lazyChatInteractions, onlyServers, webOnly } from './mcp-wiring.ts';
import type { Host, HostOptions } from './host/create-host.ts';
import type { ProviderResolution } from './llm/resolve-provider.ts';
import { appPaths, type AppPaths } from './paths.ts';
import type { KeyEndpoint } from './runner/key-endpoint.ts';
import type { SecretResolver } from './runner/types.ts';
import { sandboxStatus } from './runner/sandbox-status.ts';
import { rootsKey, toolRootsFromSettings, type ToolRoot } from './sources/discovery/tool-roots.ts';
import type { McpInteractions, McpManager } from './sources/mcp/index.ts';
import type { PythonPreloadReport } from './sources/process/python-preloads.ts';
import type { Tool } from './tools/types.ts';
import type { RuleBook } from './tools/rules/rule-book.ts';
import { SecretStore, type SecretStoreOptions } from './store/secret-store.ts';
import type { SettingsBackendFactory } from './store/settings-backend.ts';
import { settingsRuleBook } from './store/settings-rule-book.ts';
import { openSettingsStore, type SettingsStore } from './store/settings-store.ts';
import type { ToolSession, ToolSessionFactory, ToolSessionOptions } from './tools/tool-session.ts';
import type { McpServer, McpServerOptions } from './host/mcp-server/mcp-server.ts';
export type { McpServer, McpServerOptions } from './host/mcp-server/mcp-server.ts';
import type { ServeInteractionRouter } from './host/mcp-server/serve-interactions.ts';
import type { HelperPools } from './sources/source-context.ts';
import type { ToolGroupSource } from './tools/tools-change.ts';
import type { SkillSource } from './sources/skills/index.ts';
import type { SkillAdmin } from './sources/skills/skill-admin.ts';
import type { Scheduler, SchedulerClock } from './schedules/scheduler.ts';

export interface RuntimeToolOptions {
  /** Load these folders (user roots) instead of the settings' roots (the CLI's --root). */
  roots?: string[];
  /** The project folder for relative roots and project roots (default: settings.workingDir, else the user's home). */
  cwd?: string;
  /** Watch the tool folders and reload on change (default false). */
  watch?: boolean;
  /** Serve declared secrets to script tools that fetch them (Agenvoy's key endpoint); default false. */
  keyEndpoint?: boolean;
  /**
   * MCP servers (settings.mcpServers): `lazy` (default) starts a server when its group is switched
   * on or a tool is called; `start-all` starts every configured server now and waits for its tools
   * (the CLI's one-shot listing); `false` leaves them out.
   */
  mcp?: 'lazy' | 'start-all' | false;
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


export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { home } = options;
  const log = options.log ?? (() => {});
  const settings = openSettingsStore(home, { backend: options.settingsBackend, watch: options.watchSettings ?? false });
  const secrets = options.secrets ?? new SecretStore(options.secretOptions);
  const warnings = [...settings.warnings];
  if (options.sessionSecretsFallback) {
    const status = await secrets.status();
    if (!status.available) {
      secrets.useSessionFallback();
      // appInfo reports it too; Settings shows it next to the API key field.
      warnings.push(`${status.problem} API keys entered in Settings are kept in memory until Tooldesk stops.`);
    }
  }
  const toolOptions = options.tools === false ? undefined : (options.tools ?? {});
  const closers: Array<() => unknown> = [() => settings.close()];
  /** This runtime's helper processes, made with its tools or its first skill script run. */
  let pools: HelperPools | undefined;
  const ownPools = (make: () => HelperPools & { close(): Promise<void> }): HelperPools => {
    if (!pools) {
      const made = make();
      pools = made;
      // Closed after the sources that use them (closers run last-in first-out).
      closers.push(() => made.close());
    }
    return pools;
  };
  /** Made by the first mcpServer(): the questions of its connections' calls go to their clients. */
  let serveRouter: ServeInteractionRouter | undefined;

  const toolRoots = (current: Settings = settings.get()): ToolRoot[] => {
    const cwd = toolOptions?.cwd ?? current.workingDir ?? homedir();
    if (toolOptions?.roots?.length) return toolOptions.roots.map((path) => ({ path: resolve(cwd, path), kind: 'user' }));
    return toolRootsFromSettings(current, { home, cwd, exists: existsSync });
  };

  let ruleBook: RuleBook | undefined;
  const rules = (): RuleBook => {
    if (!ruleBook) {
      const book = settingsRuleBook(settings, home, log);
      closers.push(() => book.close());
      ruleBook = book;
    }
    return ruleBook;
  };

  const once = <T>(build: () => Promise<T>): (() => Promise<T>) => {
    let built: Promise<T> | undefined;
    return () => (built ??= build());
  };

  /** Every MCP manager is built here: the tools' one and those `mcp()` makes. */
  const openMcp = async (resolveSecrets: SecretResolver, mcpOptions: RuntimeMcpOptions): Promise<McpManager> => {
    const [{ createMcpGroupSource, keychainCredentialStore }, { protectedPathsFor }] = await Promise.all([import('./sources/mcp/index.ts'), import('./sources/source-context.ts')]);
    const { only, interactions, openUrl } = mcpOptions;
    return createMcpGroupSource(only ? onlyServers(settings, only) : settings, {
      resolveSecrets,
      home,
      // A server's `writable` folders never uncover the app's folders or a tool root.
      protect: () => protectedPathsFor(settings.get(), home, toolRoots()),
      runnerOptions: { resolveSecrets },
      credentials: keychainCredentialStore(secrets),
      ...(interactions ? { interactions } : {}),
      ...(openUrl ? { openBrowser: webOnly(openUrl) } : {}),
    });
  };

  const tools = once(async (): Promise<RuntimeTools> => {
    if (!toolOptions) throw new Error('this runtime was created without tools (tools: false)');
    const [{ startKeyEndpoint }, { secretResolverFrom }, { ToolRegistry }, { createSourceContext, helperPools }, { combineGroupSources }] = await Promise.all([
      import('./runner/key-endpoint.ts'),
      import('./runner/secret-resolver.ts'),
      import('./sources/discovery/tool-registry.ts'),
      import('./sources/source-context.ts'),
      import('./tools/tools-change.ts'),
    ]);
    // The long-lived processes its tools run in (warm Python fork-servers, module tool hosts) are
    // this runtime's own: none outlives close(), and another runtime's close() never ends them.
    const owned = ownPools(helperPools);
    // Agenvoy-style tools may fetch their declared secrets over HTTP; a failure only loses that path.
    let keyEndpoint: KeyEndpoint | undefined;
    if (toolOptions.keyEndpoint) {
      keyEndpoint = await startKeyEndpoint({ agenvoyCompat: settings.get().agenvoyKeyCompat }).catch((error: Error) => {
        log(`the secrets key endpoint could not start: ${error.message}`);
        return undefined;
      });
      if (keyEndpoint) closers.push(() => keyEndpoint!.close());
    }
    const resolveSecrets = secretResolverFrom(secrets, process.env);
    // A tool's questions (MCP elicitation, Open WebUI __event_call__): asked on the CLI's
    // terminal, else as cards in the chat of the call.
    // A call made by an `mcp serve` connection asks that connection's client.
    const asked = toolOptions.mcpInteractions ?? lazyChatInteractions(() => sessions(), toolOptions.openUrl ? { openUrl: webOnly(toolOptions.openUrl) } : {});
    const interactions: McpInteractions = {
      elicit: (ask, signal) => (serveRouter?.routes(ask.call?.sessionId) ? serveRouter.elicit(ask, signal) : asked.elicit!(ask, signal)),
      sample: (ask, signal) => (serveRouter?.routes(ask.call?.sessionId) ? serveRouter.sample() : asked.sample!(ask, signal)),
    };
    const registry = new ToolRegistry({
      roots: toolRoots(),
      // Read at every (re)load, so interpreter, sandbox and limits changes apply.
      context: () => createSourceContext(settings.get(), home, { roots: toolRoots(), interactions, pools: owned, runnerOptions: { resolveSecrets, ...(keyEndpoint ? { keyEndpoint } : {}) } }),
      log,
    });
    closers.push(() => registry.close());
    await registry.load();
    if (toolOptions.watch) registry.watch();
    const skills = await skillSource();
    // Every kind of tool source, in precedence order: tool folders, then MCP servers (one group
    // each). Combined after the first load, which the sources do not announce.
    const groupSources: ToolGroupSource[] = [registry, skills];
    let mcp: McpManager | undefined;
    // A one-shot listing with no server configured has no MCP part to load (the SDK is big);
    // a long-running runtime keeps it ready for servers added while it runs.
    const mcpWanted = toolOptions.mcp === 'start-all' ? Object.keys(settings.get().mcpServers).length > 0 : toolOptions.mcp !== false;
    if (mcpWanted) {
      const { mcpToolGroupSource } = await import('./sources/mcp/tool-group-source.ts');
      // Without the CLI's terminal, a server's questions become cards in the chat of the call.
      mcp = await openMcp(resolveSecrets, { interactions, ...(toolOptions.openUrl ? { openUrl: toolOptions.openUrl } : {}) });
      if (toolOptions.mcp === 'start-all') {
        await mcp.startAll();
        await mcp.settle();
      }
      groupSources.push(mcpToolGroupSource(mcp));
      // Servers that declare the skills extension add their skills (listed, labelled with the server).
      const { readyMcpClients, syncMcpSkills } = await import('./sources/skills/mcp-skills.ts');
      const skillSync = syncMcpSkills(readyMcpClients(mcp), skills, log);
      closers.push(() => skillSync.close());
      if (toolOptions.mcp === 'start-all') await skillSync.sync();
    }
    const source = combineGroupSources(groupSources, { onListenerError: (error) => log(`tools.changed listener failed: ${(error as Error).message}`) });
    closers.push(() => source.close());
    if (!toolOptions.roots?.length) {
      let lastRoots = rootsKey(settings.get());
      closers.push(
        settings.onDidChange((next) => {
          const key = rootsKey(next);
          if (key === lastRoots) return;
          lastRoots = key;
          void registry.setRoots(toolRoots(next));
        }),
      );
    }
    return {
      source,
      ...(mcp ? { mcp } : {}),
      skills,
      roots: () => registry.roots(),
      reloadPaths: (paths) => registry.reloadPaths(paths),
    };
  });

  /** The skills alone (`skills list` loads no tool); the tools' skills group comes from this one. */
  const skillSource = once(async (): Promise<SkillSource> => {
    const [{ openSkillSource }, { secretResolverFrom }, { helperPools }] = await Promise.all([import('./sources/skills/open-skill-source.ts'), import('./runner/secret-resolver.ts'), import('./sources/source-context.ts')]);
    const opened = openSkillSource({
      home,
      settings,
      cwd: (current) => toolOptions?.cwd ?? current.workingDir ?? homedir(),
      toolRoots: () => toolRoots(),
      runnerOptions: { resolveSecrets: secretResolverFrom(secrets, process.env) },
      // Skill scripts run in the runtime's warm fork-servers, beside the Python tools.
      pools: () => ownPools(helperPools),
      watch: toolOptions?.watch ?? false,
      log,
    });
    closers.push(() => opened.close());
    return opened.source;
  });

  /** Every ToolSession goes through here; the runtime closes those still open when it closes. */
  const openSessions = new Set<ToolSession>();
  closers.push(() => {
    for (const session of openSessions) session.close();
    openSessions.clear();
  });
  const openToolSession = async (source?: ToolGroupSource): Promise<ToolSessionFactory> => {
    const [{ toolSessionFactory }, { settingsPermissionStore }] = await Promise.all([import('./tools/tool-session.ts'), import('./store/permission-store.ts')]);
    const open = toolSessionFactory({
      ...(source ? { tools: source } : {}),
      settings: () => settings.get(),
      onSettingsChanged: (listener) => settings.onDidChange(listener),
      permissions: settingsPermissionStore(settings),
      ruleBook: rules(),
      log,
      closed: (session) => openSessions.delete(session),
    });
    return (sessionOptions) => {
      const session = open(sessionOptions);
      openSessions.add(session);
      return session;
    };
  };

  /** The one ToolSession factory of this runtime, over its tools when it has any. */
  const toolSessions = once(async () => openToolSession(toolOptions ? (await tools()).source : undefined));

  const sessions = once(async () => {
    const { SessionManager } = await import('./chat/session-manager.ts');
    const open = await toolSessions();
    const manager = new SessionManager({
      home,
      settings,
      secrets,
      // A schedule's chat runs with nobody watching: its permission level only tightens.
      toolSession: (sessionOptions) => open({ ...sessionOptions, unattended: () => scheduleChats.has(sessionOptions.sessionId) }),
      ...(options.provider ? { provider: (current: Settings) => options.provider!(current, secrets) } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    closers.push(() => manager.closeAll());
    return manager;
  });

  /** The schedules' chats (filled by the scheduler): unattended whoever opens them. */
  const scheduleChats = new Set<string>();
  const scheduler = once(async () => {
    const { Scheduler } = await import('./schedules/scheduler.ts');
    // Sessions first: closed after the scheduler, which detaches from its runs before their chats close.
    await sessions();
    const built = new Scheduler({ home, settings, sessions, chats: scheduleChats, ...(options.clock ? { clock: options.clock } : {}), log });
    closers.push(() => built.close());
    return built;
  });

  let host: Promise<Host> | undefined;
  let closing: Promise<void> | undefined;
  return {
    home,
    paths: appPaths(home),
    settings,
    secrets,
    warnings,
    toolRoots: () => toolRoots(),
    sandboxStatus: () => sandboxStatus(settings.get()),
    pythonPreloads: async (list) => {
      const [{ pythonPreloads }, { createSourceContext }] = await Promise.all([import('./sources/process/python-preloads.ts'), import('./sources/source-context.ts')]);
      return pythonPreloads(list, createSourceContext(settings.get(), home, { roots: toolRoots(), ...(pools ? { pools } : {}) }), settings.get().runner);
    },
    tools,
    skills: skillSource,
    skillAdmin: async () => (await import('./sources/skills/skill-admin.ts')).skillAdmin(await skillSource()),
    async mcp(mcpOptions = {}) {
      if (!mcpOptions.only && toolOptions && toolOptions.mcp !== false) {
        const own = (await tools()).mcp;
        if (own) return own;
      }
      const { secretResolverFrom } = await import('./runner/secret-resolver.ts');
      const manager = await openMcp(secretResolverFrom(secrets, process.env), mcpOptions);
      closers.push(() => manager.close());
      return manager;
    },
    toolSession: async (sessionOptions) => (await toolSessions())(sessionOptions),
    async mcpServer(serverOptions) {
      const [{ createMcpServer }, { ServeInteractionRouter }] = await Promise.all([import('./host/mcp-server/mcp-server.ts'), import('./host/mcp-server/serve-interactions.ts')]);
      serveRouter ??= new ServeInteractionRouter();
      // The enabled local skills go out through the skills extension, one catalog per server.
      const { servedSkills } = await import('./host/mcp-server/serve-skills.ts');
      const served = await servedSkills(await skillSource(), () => settings.get(), serverOptions.log ?? log);
      closers.push(() => served.close());
      const server = createMcpServer({ settings, secrets, toolSession: await toolSessions(), audit: rules().audit, router: serveRouter, skills: served.catalog }, serverOptions);
      closers.push(() => server.close());
      return server;
    },
    helpers: () => pools,
    sessions,
    rules,
    scheduler,
    host(hostOptions) {
      host ??= (async () => {
        const { createHost } = await import('./host/create-host.ts');
        const [{ createScheduleService }, running] = await Promise.all([import('./schedules/schedule-service.ts'), scheduler()]);
        const schedules = createScheduleService(running, settings, home);
        const built = createHost({ home, settings, secrets, sessions: await sessions(), tools: { ...(await tools()), toolSession: await toolSessions() }, warnings, schedules }, hostOptions);
        closers.push(() => built.close());
        return built;
      })();
      return host;
    },
    close() {
      closing ??= (async () => {
        for (const close of closers.splice(0).reverse()) {
          try {
            await close();
          } catch (error) {
            log(`closing failed: ${(error as Error).message}`);
          }
        }
      })();
      return closing;
    },
  };
}

export { webOnly } from './mcp-wiring.ts';
