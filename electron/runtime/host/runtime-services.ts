// The runtime's sessions and tools behind the host's service interfaces: the SessionManager and
// the ToolRegistry (+ tool authoring), sharing one settings store and one secret store.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import type { Settings } from '../../../shared/settings.ts';
import { SessionManager } from '../chat/session-manager.ts';
import type { ProviderResolution } from '../llm/resolve-provider.ts';
import { startKeyEndpoint, type KeyEndpoint } from '../runner/key-endpoint.ts';
import { secretResolverFrom } from '../runner/secret-resolver.ts';
import { createSourceContext } from '../sources/source-context.ts';
import { createMcpGroupSource, keychainCredentialStore } from '../sources/mcp/index.ts';
import { withMcpGroups } from '../sources/mcp/with-mcp-groups.ts';
import { ToolRegistry } from '../sources/discovery/tool-registry.ts';
import { toolRootsFromSettings } from '../sources/discovery/tool-roots.ts';
import type { SecretStore } from '../store/secret-store.ts';
import type { SettingsStore } from '../store/settings-store.ts';
import type { SessionService, ToolService } from './handlers.ts';
import { createAuthoringService } from './authoring-service.ts';
import { createSessionService } from './session-service.ts';
import { createToolService, type ToolAuthoringPort, type ToolRegistryPort } from './tool-service.ts';

export interface RuntimeServicesOptions {
  home: string;
  store: SettingsStore;
  secrets: SecretStore;
  watchTools: boolean;
  /** Replaces settings-based provider resolution (tests point sessions at a fake server). */
  provider?: (settings: Settings) => Promise<ProviderResolution>;
  log?: (message: string) => void;
  /** Opens a URL in the system browser (MCP servers' OAuth sign-in); absent = such servers say sign-in is unavailable. */
  openUrl?: (url: string) => Promise<boolean>;
}

export interface RuntimeServices {
  sessions: SessionService;
  tools: ToolService;
  close(): Promise<void>;
}

const rootsKey = (s: Settings) => JSON.stringify([s.toolRoots, s.wellKnownRoots, s.workingDir]);

export async function createRuntimeServices(options: RuntimeServicesOptions): Promise<RuntimeServices> {
  const { home, store } = options;
  const log = options.log ?? (() => {});
  const roots = (s: Settings) => toolRootsFromSettings(s, { home, cwd: s.workingDir ?? homedir(), exists: existsSync });
  // Agenvoy-style tools may fetch their declared secrets over HTTP; a failure only loses that path.
  const keyEndpoint: KeyEndpoint | undefined = await startKeyEndpoint({ agenvoyCompat: store.get().agenvoyKeyCompat }).catch((error: Error) => {
    log(`the secrets key endpoint could not start: ${error.message}`);
    return undefined;
  });
  const resolveSecrets = secretResolverFrom(options.secrets);
  const toolRegistry = new ToolRegistry({
    roots: roots(store.get()),
    // Read at every (re)load, so interpreter, sandbox and limits changes apply.
    context: () => createSourceContext(store.get(), home, { runnerOptions: { resolveSecrets, ...(keyEndpoint ? { keyEndpoint } : {}) } }),
    log,
  });
  await toolRegistry.load();
  if (options.watchTools) toolRegistry.watch();
  let lastRoots = rootsKey(store.get());
  const offSettings = store.onDidChange((next) => {
    const key = rootsKey(next);
    if (key === lastRoots) return;
    lastRoots = key;
    void toolRegistry.setRoots(roots(next));
  });
  // MCP servers: one group each, started when switched on (issue 12).
  const mcp = await createMcpGroupSource(store, {
    resolveSecrets,
    home,
    runnerOptions: { resolveSecrets },
    credentials: keychainCredentialStore(options.secrets),
    ...(options.openUrl ? { openBrowser: options.openUrl } : {}),
  });
  const registry: ToolRegistryPort = withMcpGroups({
    groups: () => toolRegistry.groups(),
    diagnostics: () => toolRegistry.diagnostics(),
    reload: () => toolRegistry.load(),
    onChanged: (listener) => toolRegistry.onChanged(() => listener()),
  }, mcp);
  const authoring: ToolAuthoringPort = createAuthoringService({
    roots: () => toolRegistry.roots(),
    groups: () => toolRegistry.groups(),
    changed: (paths) => toolRegistry.reloadPaths(paths),
  });
  const manager = new SessionManager({
    home,
    settings: store,
    secrets: options.secrets,
    tools: registry,
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const tools = createToolService(registry, store, authoring);
  return {
    sessions: createSessionService(manager),
    tools,
    async close() {
      offSettings();
      manager.closeAll();
      tools.close();
      toolRegistry.close();
      await mcp.close();
      await keyEndpoint?.close();
    },
  };
}
