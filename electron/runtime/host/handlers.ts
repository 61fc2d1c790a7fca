// Every API method, implemented once over the runtime's services (services.ts). Transports (IPC,
// WebSocket, in-memory) validate requests first and call these; a thrown Error becomes an {name, message}.
import { testRules } from '../tools/rules/test-rules.ts';
import { readAudit } from '../audit/audit-log.ts';
import { apiError, type ApiHandlers, type ProviderInfo } from '../../../shared/api.ts';
import { resolveProviderRequest, type ProviderRequest } from './services/provider-service.ts';
import type { HostServices } from './services/services.ts';
import { mkdir } from 'node:fs/promises';
import { openWithSystem } from '../base/open-with-system.ts';
import { openDocs } from './docs/open-docs.ts';
import { scheduleHandlers } from './services/schedule-handlers.ts';
import { skillHandlers } from './skills/skill-handlers.ts';
import { listAllModels } from '../llm/list-all-models.ts';
import { applySecretChanges } from './services/settings-service.ts';
import { UNTRUSTED_FOLDER_CODE } from '../../../shared/tools.ts';
import { isTrustedProjectFolder, withProjectTrust } from './services/project-trust.ts';
import type { ChatToolSelection } from '../../../shared/tool-selection.ts';

export type { HostServices, ProviderService, SecretService, SessionService, SettingsService, ToolService, VariableAccess } from './services/services.ts';
export { createEventHub } from './event-hub.ts';

const notFound = (what: string) => apiError('NotFoundError', what);

export interface HandlerHooks {
  /** Called after a session was created, renamed or deleted (the event hub re-lists). */
  sessionsChanged?(): void;
}

export function createHandlers(services: HostServices, hooks: HandlerHooks = {}): ApiHandlers {
  const { sessions, tools, settings, providers, secrets } = services;
  const changed = <T>(value: T): T => {
    hooks.sessionsChanged?.();
    return value;
  };

  const needMcp = () => {
    if (!services.mcp) throw apiError('UnavailableError', 'MCP servers are not available in this process');
    return services.mcp;
  };

  const needValves = () => {
    if (!services.valves) throw apiError('UnavailableError', 'Tool valves are not available in this process');
    return services.valves;
  };
  // The service's errors name the group or the field and what to do: passed on as they are.
  const asNotFound = (error: Error): never => {
    throw apiError(/^no tool group/.test(error.message) ? 'NotFoundError' : 'InvalidRequestError', error.message);
  };

  const resolveProvider = (request: ProviderRequest) => resolveProviderRequest(request, settings.get(), secrets);

  return {
    listSessions: () => sessions.list(),
    createSession: async ({ title, chat }) => changed(await sessions.create(title, chat)),
    openSession: ({ sessionId }) => sessions.open(sessionId),
    renameSession: async ({ sessionId, title }) => changed(await sessions.rename(sessionId, title)),
    setSessionFlags: async ({ sessionId, pinned, archived }) => changed(await sessions.setFlags(sessionId, { ...(pinned !== undefined ? { pinned } : {}), ...(archived !== undefined ? { archived } : {}) })),
    deleteSession: async ({ sessionId }) => {
      await sessions.delete(sessionId);
      return changed(null);
    },
    searchSessions: ({ query }) => sessions.search(query),

    sendMessage: async ({ sessionId, text, messageId, attachments }) => {
      // `/server:prompt …`: the prompt's messages are the user's turn (its images as attachments).
      const prompt = await services.mcp?.promptTurn(text);
      const files = [...(attachments ?? []), ...(prompt?.attachments ?? [])];
      return sessions.send(sessionId, prompt ? prompt.text : text, {
        ...(messageId ? { messageId } : {}),
        ...(files.length ? { attachments: files } : {}),
        ...(prompt ? { prompt: text.trim() } : {}),
      });
    },
    editMessage: ({ sessionId, messageId, text }) => sessions.edit(sessionId, messageId, text),
    regenerate: ({ sessionId, messageId }) => sessions.regenerate(sessionId, messageId),
    continueTurn: ({ sessionId }) => sessions.continueTurn(sessionId),
    switchBranch: async ({ sessionId, messageId }) => {
      await sessions.switchBranch(sessionId, messageId);
      return null;
    },
    deleteMessage: async ({ sessionId, messageId }) => {
      await sessions.deleteMessage(sessionId, messageId);
      return changed(null);
    },
    setChatSettings: ({ sessionId, chat }) => sessions.setChatSettings(sessionId, chat),
    listAllModels: () =>
      listAllModels(settings.get(), async (provider) => {
        const apiKey = provider.apiKeySecret ? await secrets.get(provider.apiKeySecret).catch(() => null) : null;
        return providers.listModels(provider, apiKey);
      }),
    exportSession: ({ sessionId, format }) => sessions.export(sessionId, format),
    abort: async ({ sessionId }) => {
      await sessions.abort(sessionId);
      return null;
    },
    answerApproval: async ({ sessionId, requestId, decision }) => {
      if (!(await sessions.answerApproval(sessionId, requestId, decision))) {
        throw notFound(`no pending approval "${requestId}" in session ${sessionId} (already answered, or the turn was aborted)`);
      }
      return null;
    },

    answerMcpInteraction: async ({ sessionId, requestId, answer }) => {
      const content = answer.action === 'accept' ? answer.content : undefined;
      // The spec's form values are primitives; anything else is not the user's answer.
      if (content && Object.values(content).some((v) => !['string', 'number', 'boolean'].includes(typeof v))) {
        throw apiError('InvalidRequestError', 'answerMcpInteraction: form values must be strings, numbers or booleans');
      }
      if (!(await sessions.answerMcpInteraction?.(sessionId, requestId, answer))) {
        throw notFound(`no pending MCP request "${requestId}" in session ${sessionId} (already answered, or its tool call ended)`);
      }
      return null;
    },
    cancelToolCall: ({ sessionId, callId }) => sessions.cancelToolCall(sessionId, callId),
    rerunToolCall: ({ sessionId, callId, args }) => sessions.rerunToolCall(sessionId, callId, args),
    checkToolArgs: ({ sessionId, name, args }) => sessions.checkToolArgs(sessionId, name, args),
    readToolImage: async ({ sessionId, stored }) => {
      const image = await sessions.readToolImage?.(sessionId, stored);
      if (!image) throw notFound(`no tool image "${stored}" in session ${sessionId} (the session's files were removed?)`);
      return image;
    },
    setToolSelection: ({ sessionId, selection }) => {
      if (selection !== null && !isSelection(selection)) {
        throw apiError('InvalidRequestError', 'setToolSelection: selection must be null or {tools: string[], pinned: string[]}');
      }
      return sessions.setToolSelection(sessionId, selection);
    },

    listTools: async () => tools.state(),
    reloadTools: () => tools.reload(),
    openToolsFolder: async () => {
      const path = (await services.appInfo()).toolsFolder;
      if (!path) throw apiError('UnavailableError', 'no tools folder is known in this process');
      await mkdir(path, { recursive: true });
      return { path, opened: await openWithSystem(path) };
    },
    openDocs: ({ page }) => openDocs(page),
    setGroupEnabled: async ({ group, enabled }) => {
      // A server just added has no group until the tools list catches up: its name is enough.
      const known = tools.state().groups.some((g) => g.name === group) || (services.mcp?.list().some((s) => s.name === group && !s.problem) ?? false);
      if (!known) throw notFound(`no tool group "${group}"`);
      settings.setGroupEnabled(group, enabled);
      return tools.state();
    },
    setToolEnabled: async ({ tool, enabled }) => {
      if (!tools.state().groups.some((g) => g.tools.some((t) => t.name === tool))) throw notFound(`no tool "${tool}"`);
      settings.setToolEnabled(tool, enabled);
      return tools.state();
    },
    getToolValves: ({ group }) => needValves().get(group).catch(asNotFound),
    setToolValves: ({ group, kind, values }) => needValves().set(group, kind, values).catch(asNotFound),
    createTool: ({ format, name, files }) => tools.create(format, name, files),
    readTool: ({ name }) => tools.read(name),
    updateTool: ({ name, files }) => tools.update(name, files),
    deleteTool: async ({ name }) => {
      await tools.delete(name);
      return null;
    },
    trustToolFolder: async ({ path, trusted }) => {
      const listed = tools.state().diagnostics.some((d) => d.code === UNTRUSTED_FOLDER_CODE && d.file === path);
      const current = settings.get().trustedProjectFolders ?? [];
      if (trusted && !listed && !isTrustedProjectFolder(settings.get(), path)) throw notFound(`no untrusted project folder "${path}" is listed; approve only a folder the Tools panel shows`);
      settings.patch({ trustedProjectFolders: withProjectTrust(current, path, trusted) });
      // The roots follow the settings; this reload queues behind theirs, so the answer is current.
      return tools.reload();
    },
    runTool: ({ sessionId, name, args }) => sessions.runTool(sessionId, name, args),

    listVariables: async ({ sessionId, type, search }) => (await sessions.variables(sessionId)).list({ type, search }),
    readVariable: async ({ sessionId, name, start, length }) => {
      const slice = (await sessions.variables(sessionId)).read(name, start, length);
      if (!slice) throw notFound(`no variable "${name}" in session ${sessionId}`);
      return slice;
    },
    deleteVariable: async ({ sessionId, name }) => {
      if (!(await sessions.variables(sessionId)).remove(name)) throw notFound(`no variable "${name}" in session ${sessionId}`);
      return null;
    },

    getSettings: async () => settings.get(),
    // A provider and its key in one call: the settings are checked first (nothing stored when
    // invalid), the secrets stored, the settings written; a failed write puts the secrets back.
    setSettings: async ({ patch, secrets: secretChanges }) => {
      if (!secretChanges || Object.keys(secretChanges).length === 0) return settings.patch(patch);
      settings.check(patch);
      const undo = await applySecretChanges(secrets, secretChanges);
      try {
        return settings.patch(patch);
      } catch (error) {
        await undo();
        throw error;
      }
    },

    listProviders: async (): Promise<ProviderInfo[]> => {
      const current = settings.get();
      return Promise.all(
        current.providers.map(async (p) => ({
          ...p,
          active: p.id === current.activeProviderId,
          hasApiKey: p.apiKeySecret ? await secrets.exists(p.apiKeySecret).catch(() => false) : false,
        })),
      );
    },
    testProvider: async (request) => {
      const { provider, apiKey } = await resolveProvider(request);
      return providers.test(provider, apiKey);
    },
    listModels: async (request) => {
      const { provider, apiKey } = await resolveProvider(request);
      return (await providers.listModels(provider, apiKey)).map((m) => m.id);
    },
    detectLocalProviders: () => providers.detectLocal(),

    setSecret: async ({ name, value }) => {
      await secrets.set(name, value);
      return null;
    },
    deleteSecret: async ({ name }) => {
      await secrets.delete(name);
      return null;
    },
    hasSecret: ({ name }) => secrets.exists(name),

    listMcpServers: async () => services.mcp?.list() ?? [],
    addMcpServer: (request) => needMcp().add(request),
    removeMcpServer: ({ name }) => needMcp().remove(name),
    restartMcpServer: ({ name }) => needMcp().restart(name),
    allowMcpWrite: ({ name, folder }) => needMcp().allowWrite(name, folder),
    setMcpArgFoldersWritable: ({ name, writable }) => needMcp().setArgFoldersWritable(name, writable),
    previewMcpImport: async () => needMcp().previewImport(),
    importMcpServers: ({ names, answers, allowSecrets }) => needMcp().importServers(names, answers, allowSecrets),
    listMcpPrompts: async () => services.mcp?.prompts() ?? { items: [], problems: [] },
    listMcpResources: async () => services.mcp?.resources() ?? { items: [], problems: [] },
    readMcpResource: ({ server, uri }) => needMcp().readResource(server, uri),

    appInfo: () => services.appInfo(),
    testToolRules: async (request) => testRules(settings.get(), request),
    listAudit: async ({ limit = 200, ...query }) => (services.auditDir ? readAudit(services.auditDir, query).slice(-limit) : []),
    ...appHandlers(services),
    ...mcpInstallHandlers(services),
    ...scheduleHandlers(services.schedules),
    ...skillHandlers(services.skills),
  };
}

function mcpInstallHandlers(services: HostServices): Pick<ApiHandlers, 'openMcpBundle' | 'installMcpBundle' | 'discardMcpBundle' | 'searchMcpRegistry' | 'installMcpRegistryServer' | 'openMcpRegistryBundle'> {
  const install = () => {
    if (!services.mcpInstall) throw apiError('UnavailableError', 'installing MCP servers is not available in this process');
    return services.mcpInstall;
  };
  return {
    openMcpBundle: ({ fileName, data }) => install().openBundle(fileName, data),
    installMcpBundle: ({ id, name, values }) => install().installBundle(id, values, name),
    discardMcpBundle: async ({ id }) => {
      install().discardBundle(id);
      return null;
    },
    searchMcpRegistry: ({ text }) => install().searchRegistry(text),
    installMcpRegistryServer: ({ name, localName, values }) => install().installFromRegistry(name, values, localName),
    openMcpRegistryBundle: ({ name }) => install().openRegistryBundle(name),
  };
}

function appHandlers(services: HostServices): Pick<ApiHandlers, 'openMcpApp' | 'allowMcpApp' | 'callToolFromApp' | 'readResourceFromApp' | 'updateModelContextFromApp'> {
  const apps = () => {
    if (!services.apps) throw apiError('UnavailableError', 'MCP Apps are not available in this process');
    return services.apps;
  };
  return {
    openMcpApp: ({ sessionId, callId }) => apps().open(sessionId, callId),
    allowMcpApp: ({ server, kind }) => apps().allow(server, kind),
    callToolFromApp: ({ sessionId, callId, name, args }) => apps().callTool(sessionId, callId, name, args),
    readResourceFromApp: ({ sessionId, callId, uri }) => apps().readResource(sessionId, callId, uri),
    updateModelContextFromApp: async ({ sessionId, callId, text }) => apps().updateModelContext(sessionId, callId, text),
  };
}

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.length <= 100_000 && v.every((x) => typeof x === 'string' && x.length <= 4096);

function isSelection(value: unknown): value is ChatToolSelection {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const v = value as { tools?: unknown; pinned?: unknown };
  return keys.every((k) => k === 'tools' || k === 'pinned') && isStringList(v.tools) && isStringList(v.pinned);
}
