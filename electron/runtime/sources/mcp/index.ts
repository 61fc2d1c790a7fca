// The MCP client's entry point for composition roots: a manager built from the settings, kept in
// step with them (servers added, removed, groups switched), starting stdio servers through
// runner/spawn-managed.ts.
import type { WriteGuard } from './config/allow-write.ts';
import { homedir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import type { Settings } from '../../../../shared/settings.ts';
import { spawnManaged } from '../../runner/spawn-managed.ts';
import type { ProtectedPaths, RunnerOptions, SecretResolver } from '../../runner/types.ts';
import { protectedPathsFor } from '../source-context.ts';
import { McpManager } from './mcp-manager.ts';
import { createOAuthFlow, type CredentialStore } from './connection/oauth-flow.ts';
import type { McpClientDeps, McpInteractions, SpawnServer } from './types.ts';

export { McpManager, type McpGroupSource } from './mcp-manager.ts';
export { serverLogFile } from './connection/server-log.ts';
export { descriptionSnapshotFile } from './mapping/description-watch.ts';
export { entryEnvRefs } from './config/config-variables.ts';
export { knownConfigFiles, planImport, answerQuestions, moveSecrets, type ConfigLocation, type ImportedServer } from './config/import-config.ts';
export { keychainCredentialStore } from './connection/oauth-flow.ts';
export { formDefaults, type FormValue } from './connection/form-defaults.ts';
export { clearSecretMissing, markSecretsMissing, missingSecretsOf, secretStored } from './config/secret-missing.ts';
export { parseMcpServers, parseMcpServer, switchedOffMessage, type McpServer } from './config/server-config.ts';
export type { McpServerStateInfo, McpInteractions } from './types.ts';

export interface McpSourceOptions {
  resolveSecrets: SecretResolver;
  /** TOOLDESK_HOME: server logs go to its logs/mcp folder. */
  home?: string;
  interactions?: McpInteractions;
  runnerOptions?: RunnerOptions;
  /** OAuth sign-in: where tokens are kept and how the consent page is shown (without a browser, stored tokens still work). */
  credentials?: CredentialStore;
  openBrowser?: (url: string) => Promise<boolean>;
  /**
   * What a sandboxed server may never write, asked at each start (the roots follow the settings):
   * bound read-only after its `writable` folders. Default: from `home` and the settings.
   */
  protect?: () => ProtectedPaths;
  /** Overrides for tests (bounds, restart delays, a fake spawn). */
  deps?: Partial<McpClientDeps>;
  /** Start a switched-on server at once (default) or on first use (see McpManager). */
  autoStart?: boolean;
}

/** Inside (or holding) TOOLDESK_HOME or a tool root. */
function isProtectedPath(paths: ProtectedPaths, path: string): boolean {
  const within = (a: string, b: string) => {
    const rel = relative(a, b);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  return [paths.appHome, ...paths.toolRoots].some((p) => within(p, path) || within(path, p));
}

/** What "allow writing" may never open for a server, outside a running manager (the CLI). */
export function serverWriteGuard(settings: Settings, appHome: string, userHome = homedir()): WriteGuard {
  const paths = protectedPathsFor(settings, appHome);
  return { isProtected: (path) => isProtectedPath(paths, path), home: userHome };
}

export const mcpLogDir = (home: string) => join(home, 'logs', 'mcp');
export const mcpStateDir = (home: string) => join(home, 'cache', 'mcp');

/** Starts a stdio server through the runner's managed spawn (sandbox, process group, lifeline). */
export function managedSpawn(runnerOptions: RunnerOptions = {}): SpawnServer {
  return (spec) => spawnManaged({ ...spec, maxStderrBytes: spec.maxStderrBytes ?? 64 * 1024 }, runnerOptions);
}

export function mcpDeps(settings: Settings, options: McpSourceOptions): McpClientDeps {
  const globalMode = settings.sandbox.mode;
  const spawn = options.deps?.spawn ?? managedSpawn(options.runnerOptions);
  const home = options.home;
  const protect = options.protect ?? (home ? () => protectedPathsFor(settings, home) : undefined);
  return {
    resolveSecrets: options.resolveSecrets,
    workingDir: settings.workingDir ?? homedir(),
    startTimeoutMs: settings.limits.mcpStartTimeoutMs,
    sandboxBase: { maxProcesses: settings.limits.maxProcesses, maxMemoryBytes: settings.limits.maxMemoryBytes },
    ...(options.interactions ? { interactions: options.interactions } : {}),
    ...(options.home ? { logDir: mcpLogDir(options.home), stateDir: mcpStateDir(options.home) } : {}),
    ...(options.credentials ? { oauth: oauthFrom(options.credentials, options.openBrowser) } : {}),
    ...(protect ? { isProtected: (path: string) => isProtectedPath(protect(), path) } : {}),
    ...options.deps,
    // The global switch bounds a server's own: `off` everywhere wins, `required` turns `auto` strict.
    spawn: (spec) => {
      const mode = globalMode === 'off' ? 'off' : spec.sandbox?.mode === 'off' ? 'off' : globalMode === 'required' ? 'required' : 'auto';
      return spawn({ ...spec, ...(spec.sandbox ? { sandbox: { ...spec.sandbox, mode, ...(protect ? { protect: protect() } : {}) } } : {}) });
    },
  };
}

/** Without a browser, tokens already in the keychain still work; a new consent says where to give it. */
function oauthFrom(store: CredentialStore, openBrowser?: (url: string) => Promise<boolean>): NonNullable<McpClientDeps['oauth']> {
  return (server, _url, client) =>
    createOAuthFlow({
      server,
      store,
      ...(client ? { client } : {}),
      openBrowser: async (url) => {
        if (!openBrowser) throw new Error('sign-in needs a browser, which is not available here: sign in once with `tooldesk mcp list --status` in a desktop session');
        if (!(await openBrowser(url.toString()))) throw new Error(`could not open a browser for sign-in; open ${url.toString()} yourself`);
      },
    });
}

/** A manager configured from `store` now and on every settings change; close() stops every server. */
export async function createMcpGroupSource(
  store: { get(): Settings; onDidChange(listener: (next: Settings) => void): () => void },
  options: McpSourceOptions,
): Promise<McpManager> {
  const manager = new McpManager(mcpDeps(store.get(), options), { autoStart: options.autoStart ?? true });
  const apply = (s: Settings) => manager.configure(s.mcpServers, s.groupDefaults);
  const keyOf = (s: Settings) => JSON.stringify([s.mcpServers, s.groupDefaults]);
  await apply(store.get());
  // Other settings (tool roots, limits, …) changing must not reconfigure the servers.
  let last = keyOf(store.get());
  const off = store.onDidChange((next) => {
    const key = keyOf(next);
    if (key === last) return;
    last = key;
    void apply(next);
  });
  const close = manager.close.bind(manager);
  manager.close = async () => {
    off();
    await close();
  };
  return manager;
}
