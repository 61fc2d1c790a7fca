// The composition root: settings, secrets, tool sources, sessions and the API host are built
// here and nowhere else. The Electron app, `tooldesk serve` and every CLI command call
// createRuntime and ask for the parts they use (parts are built on first use, once), so
// `tools list` starts no watcher and no key endpoint, and `sessions list` loads no tools.
// What a runtime offers is declared in runtime.ts. A new kind of tool source is one more entry in
// `groupSources` below. Each part's modules are imported when the part is first built: `sessions
// list` loads no tool, MCP or ajv code, and `tools list` no chat code.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Settings } from '../../shared/settings.ts';
import { lazyChatInteractions, mcpPartWanted, onlyServers, startForMode, webOnly } from './mcp-wiring.ts';
import type { Host } from './host/create-host.ts';
import { appPaths } from './paths.ts';
import type { KeyEndpoint } from './runner/key-endpoint.ts';
import type { SecretResolver } from './runner/types.ts';
import { sandboxStatus } from './runner/sandbox-status.ts';
import { rootsKey, toolRootsFromSettings, type ToolRoot } from './sources/discovery/tool-roots.ts';
import type { McpInteractions, McpManager } from './sources/mcp/index.ts';
import type { RuleBook } from './tools/rules/rule-book.ts';
import { SecretStore } from './store/secret-store.ts';
import { settingsRuleBook } from './store/settings-rule-book.ts';
import { openSettingsStore } from './store/settings-store.ts';
import type { ToolSession, ToolSessionDeps, ToolSessionFactory } from './tools/tool-session.ts';
export type { McpServer, McpServerOptions } from './host/mcp-server/mcp-server.ts';
import type { ServeInteractionRouter } from './host/mcp-server/serve-interactions.ts';
import type { HelperPools } from './sources/source-context.ts';
import type { ToolGroupSource } from './tools/tools-change.ts';
import type { SkillSource } from './sources/skills/index.ts';
import type { Runtime, RuntimeMcpOptions, RuntimeOptions, RuntimeTools } from './runtime.ts';
export type { Runtime, RuntimeMcpOptions, RuntimeOptions, RuntimeToolOptions, RuntimeTools } from './runtime.ts';

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
  const openMcp = async (resolveSecrets: SecretResolver, mcpOptions: RuntimeMcpOptions, autoStart = true): Promise<McpManager> => {
    const [{ createMcpGroupSource, keychainCredentialStore }, { protectedPathsFor }] = await Promise.all([import('./sources/mcp/index.ts'), import('./sources/source-context.ts')]);
    const { only, interactions, openUrl } = mcpOptions;
    return createMcpGroupSource(only ? onlyServers(settings, only) : settings, {
      resolveSecrets,
      home,
      // A server's `writable` folders never uncover the app's folders or a tool root.
      protect: () => protectedPathsFor(settings.get(), home, toolRoots()),
      runnerOptions: { resolveSecrets },
      credentials: keychainCredentialStore(secrets),
      autoStart,
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
      sample: (ask, signal) => (serveRouter?.routes(ask.call?.sessionId) ? serveRouter.sample() : asked.sample ? asked.sample(ask, signal) : Promise.reject(new Error('no one here can answer a sampling request'))),
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
    // A one-shot run with no server to start has no MCP part to load (the SDK is big);
    // a long-running runtime keeps it ready for servers added while it runs.
    if (await mcpPartWanted(toolOptions.mcp, settings.get())) {
      const { mcpToolGroupSource } = await import('./sources/mcp/tool-group-source.ts');
      // Without the CLI's terminal, a server's questions become cards in the chat of the call.
      // Only a long-running runtime starts every switched-on server by itself.
      const lazy = (toolOptions.mcp ?? 'lazy') === 'lazy';
      mcp = await openMcp(resolveSecrets, { interactions, ...(toolOptions.openUrl ? { openUrl: toolOptions.openUrl } : {}) }, lazy);
      await startForMode(mcp, toolOptions.mcp, settings.get());
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
  const openToolSession = async (source?: ToolGroupSource, skills?: Pick<ToolSessionDeps, 'activeToolSets' | 'skillScope'>): Promise<ToolSessionFactory> => {
    const [{ toolSessionFactory }, { settingsPermissionStore }] = await Promise.all([import('./tools/tool-session.ts'), import('./store/permission-store.ts')]);
    const open = toolSessionFactory({
      ...(source ? { tools: source } : {}),
      settings: () => settings.get(),
      onSettingsChanged: (listener) => settings.onDidChange(listener),
      permissions: settingsPermissionStore(settings),
      ruleBook: rules(),
      log,
      closed: (session) => openSessions.delete(session),
      ...skills,
    });
    return (sessionOptions) => {
      const session = open(sessionOptions);
      openSessions.add(session);
      return session;
    };
  };

  /** The one ToolSession factory of this runtime, over its tools when it has any. */
  const toolSessions = once(async () => {
    const loaded = toolOptions ? await tools() : undefined;
    // A skill's accepted `allowed-tools` narrow a conversation while the skill is active there;
    // each conversation offers the skills its Tools menu and tool set keep.
    return openToolSession(loaded?.source, loaded ? { activeToolSets: loaded.skills.activeToolSets(), skillScope: loaded.skills.scope() } : undefined);
  });

  const sessions = once(async () => {
    const { SessionManager } = await import('./chat/persistence/session-manager.ts');
    const open = await toolSessions();
    const manager = new SessionManager({
      home,
      settings,
      secrets,
      // A schedule's chat runs with nobody watching: its permission level only tightens, and its
      // tools run in the run's folder (the schedule's --cwd) when it has one.
      toolSession: (sessionOptions) => open({ ...sessionOptions, unattended: () => scheduleChats.has(sessionOptions.sessionId), workingDir: () => scheduleChats.get(sessionOptions.sessionId) }),
      ...(options.provider ? { provider: (current: Settings) => options.provider!(current, secrets) } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    closers.push(() => manager.closeAll());
    return manager;
  });

  /** The schedules' chats (filled by the scheduler): unattended whoever opens them; → their run's folder. */
  const scheduleChats = new Map<string, string | undefined>();
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
      const [{ pythonPreloads }, { createSourceContext, helperPools }] = await Promise.all([import('./sources/process/python-preloads.ts'), import('./sources/source-context.ts')]);
      return pythonPreloads(list, createSourceContext(settings.get(), home, { roots: toolRoots(), pools: ownPools(helperPools) }), settings.get().runner);
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
      // The enabled local skills go out through the skills extension, one catalog per server;
      // a --toolset naming skills serves those alone, as its conversations offer those alone.
      const [{ servedSkills }, { findToolSet }] = await Promise.all([import('./host/mcp-server/serve-skills.ts'), import('./tools/rules/rule-book.ts')]);
      const named = () => (serverOptions.toolSet ? findToolSet(settings.get(), serverOptions.toolSet)?.skills : undefined);
      const served = await servedSkills(await skillSource(), () => settings.get(), serverOptions.log ?? log, (id) => !named()?.length || named()!.includes(id));
      closers.push(() => served.close());
      // A host's first tools/list waits for the MCP servers' starts in flight (host/mcp-server/mcp-server.ts).
      const starts = toolOptions ? (await tools()).mcp : undefined;
      const server = createMcpServer({ settings, secrets, toolSession: await toolSessions(), audit: rules().audit, router: serveRouter, skills: served.catalog, ...(starts ? { starts } : {}) }, serverOptions);
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
