// The API over the runtime's parts: the host services, the handlers over them and one event
// stream. Pure Node (no Electron). Built by createRuntime (runtime.host()), which owns the parts;
// the host's close only detaches what it added.
import { auditDir } from '../audit/audit-log.ts';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { apiError, type ApiEventListener, type ApiHandlers, type AppInfo } from '../../../shared/api.ts';
import type { SessionManager } from '../chat/persistence/session-manager.ts';
import { sandboxStatus } from '../runner/sandbox-status.ts';
import type { SecretStore } from '../store/secret-store.ts';
import type { SettingsStore } from '../store/settings-store.ts';
import type { ToolRoot } from '../sources/discovery/tool-roots.ts';
import { createAuthoringService } from './services/authoring-service.ts';
import { createEventHub } from './event-hub.ts';
import { createHandlers } from './handlers.ts';
import type { HostServices, ProviderService, SecretService } from './services/services.ts';
import { secretStored } from '../sources/mcp/config/secret-missing.ts';
import { createProviderService } from './services/provider-service.ts';
import { createSessionService } from './services/session-service.ts';
import { createSettingsService } from './services/settings-service.ts';
import { createToolService, type ToolCatalogPort } from './services/tool-service.ts';
import type { ApiHost } from './types.ts';
import { createMcpService } from './services/mcp-service.ts';
import { createMcpInstallService } from './services/mcp-install-service.ts';
import type { McpManager } from '../sources/mcp/index.ts';
import { homedir } from 'node:os';
import { createValvesService } from './services/valves-service.ts';
import { WELL_KNOWN_ROOTS } from '../sources/discovery/tool-roots.ts';
import { createAppService } from './apps/app-service.ts';
import type { ScheduleService } from '../schedules/schedule-service.ts';
import type { SkillSource } from '../sources/skills/skill-source.ts';
import { createSkillsService } from './skills/skills-service.ts';
import { skillAdmin } from '../sources/skills/skill-admin.ts';

export interface HostOptions {
  /** Reported by appInfo (the renderer talks over WebSocket). */
  browserMode: boolean;
  /** The app's version for appInfo (the CLI passes package.json's, Electron app.getVersion()). */
  version?: string;
  providers?: ProviderService;
}

/** The loaded tools as the host uses them (createRuntime's RuntimeTools). */
export interface HostTools extends ToolCatalogPort {
  /** The MCP servers, for Settings → MCP servers (absent: the rows show the configuration only). */
  mcp?: McpManager;
  roots(): ToolRoot[];
  reloadPaths(paths: string[]): Promise<unknown>;
  /** The skills (Settings → Skills; absent: not available in this process). */
  skills?: SkillSource;
}

/** The runtime's parts the host is built over. */
export interface HostParts {
  home: string;
  settings: SettingsStore;
  secrets: SecretStore;
  sessions: SessionManager;
  tools: HostTools;
  /** Start-up warnings (settings repaired, no keyring). */
  warnings: string[];
  /** Settings → Schedules and the Inbox (absent: not available in this process). */
  schedules?: ScheduleService;
}

export interface Host extends ApiHost {
  handlers: ApiHandlers;
  settings: SettingsStore;
  /** Problems found while starting (corrupt settings replaced, …), for the CLI to print. */
  warnings: string[];
  onEvent(listener: ApiEventListener): () => void;
  close(): void;
}

export function createHost(parts: HostParts, options: HostOptions): Host {
  const { settings: store, secrets } = parts;
  const appInfo = async (): Promise<AppInfo> => {
    const kind = await secrets.kind();
    const status = await secrets.status();
    return {
      version: options.version ?? 'unknown',
      browserMode: options.browserMode,
      platform: `${platform()}-${arch()}`,
      home: parts.home,
      sandbox: sandboxStatus(store.get()),
      secrets: kind === 'keyring' ? { backend: kind } : { backend: kind, detail: status.problem },
      // The settings store's list grows when another process writes an invalid file. (No keyring
      // is not repeated here: Settings shows it next to the API key field.)
      warnings: [...store.warnings],
      wellKnownFolders: wellKnownFolders(store.get().workingDir),
      toolsFolder: toolsFolder(),
    };
  };
  /** Where your own tools go: the first of your tool roots, else `tools` in the home. */
  const toolsFolder = () => parts.tools.roots().find((r) => r.kind === 'user')?.path ?? join(parts.home, 'tools');

  const authoring = createAuthoringService({
    roots: () => parts.tools.roots(),
    groups: () => parts.tools.source.groups(),
    changed: (paths) => parts.tools.reloadPaths(paths),
  });
  const tools = createToolService(parts.tools, store, authoring);
  // Storing a secret (its field, a provider's key, an import) clears the "secret missing" mark
  // of the servers waiting for it — in the keychain only: a value held for this run is missing
  // again at the next start.
  const hostSecrets: SecretService = {
    async set(name, value) {
      await secrets.set(name, value);
      if ((await secrets.kind()) === 'keyring') secretStored(store, name);
    },
    delete: (name) => secrets.delete(name),
    exists: (name) => secrets.exists(name),
    get: (name) => secrets.get(name),
  };
  const skillsService = (source: SkillSource) =>
    createSkillsService({ source, settings: store, groups: () => parts.tools.source.groups(), create: (name) => skillAdmin(source).create(name) });
  const mcp = createMcpService({ settings: store, secrets: hostSecrets, ...(parts.tools.mcp ? { manager: parts.tools.mcp } : {}) });
  const services: HostServices = {
    sessions: createSessionService(parts.sessions),
    tools,
    settings: createSettingsService(store),
    providers: options.providers ?? createProviderService(),
    secrets: hostSecrets,
    mcp,
    mcpInstall: createMcpInstallService({ home: parts.home, settings: store, secrets: hostSecrets, secretBackend: () => secrets.kind(), list: () => mcp.list() }),
    valves: createValvesService(parts.home, () => parts.tools.source.groups(), hostSecrets),
    apps: createAppService({
      home: parts.home,
      ...(parts.tools.mcp ? { mcp: parts.tools.mcp } : {}),
      session: (id) => {
        if (!parts.sessions.exists(id)) throw apiError('NotFoundError', `no session "${id}"`);
        return parts.sessions.open(id);
      },
    }),
    appInfo,
    auditDir: auditDir(parts.home),
    ...(parts.schedules ? { schedules: parts.schedules } : {}),
    ...(parts.tools.skills ? { skills: skillsService(parts.tools.skills) } : {}),
  };
  // Approvals when no UI is attached (DESIGN: "no UI attached means rejected, never silently
  // allowed"). Decision: the hub subscribes to every session for the host's whole life, so in
  // browser mode a request WAITS for a window or tab (one that connects later gets it from
  // openSession's pendingApprovals) instead of being rejected because a tab was reloaded. It is
  // never allowed without an answer: aborting the turn, deleting the session or closing the host
  // rejects it. Paths without a host subscriber reject at once (a SessionManager with no
  // listeners), and the CLI's terminal approver rejects at end of input.
  const hub = createEventHub(services);
  const handlers = createHandlers(services, { sessionsChanged: () => void hub.sessionsChanged() });

  let closed = false;
  return {
    handlers,
    settings: store,
    warnings: [...parts.warnings],
    onEvent: hub.onEvent,
    close() {
      if (closed) return;
      closed = true;
      hub.dispose();
      tools.close();
      mcp.close();
      services.mcpInstall?.close();
      services.apps?.close();
    },
  };
}

/** The other projects' tool folders as they are on this machine (project ones under the working folder). */
function wellKnownFolders(workingDir: string | null): AppInfo['wellKnownFolders'] {
  const where = { userHome: homedir(), cwd: workingDir ?? homedir() };
  return Object.fromEntries(WELL_KNOWN_ROOTS.map((spec) => [spec.key, spec.path(where)]));
}
