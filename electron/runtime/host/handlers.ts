// Every API method, implemented once over the runtime's services. Transports (IPC, WebSocket,
// in-memory) validate requests first and call these; a thrown Error becomes an {name, message}.
import { apiError, type ApiEventListener, type ApiHandlers, type AppInfo, type DetectedProvider, type ProviderInfo, type ProviderTestResult, type SessionSearchHit, type SessionSnapshot, type ToolFiles, type ToolsState, type AuthoringFormat } from '../../../shared/api.ts';
import type { ChatEvent, ChatSettings, SessionInfo } from '../../../shared/chat.ts';
import type { AttachmentUpload, ExportFormat } from '../../../shared/api.ts';
import { listAllModels } from '../llm/list-all-models.ts';
import type { ProviderConfig, Settings } from '../../../shared/settings.ts';
import type { ApprovalDecision, ToolExecuteResult } from '../../../shared/tools.ts';
import type { Variable, VariableInfo, VariableType } from '../../../shared/variables.ts';

/** The chat side (the session manager behind an adapter). */
export interface SessionService {
  list(): Promise<SessionInfo[]>;
  create(title?: string, chat?: ChatSettings): Promise<SessionInfo>;
  open(sessionId: string): Promise<SessionSnapshot>;
  rename(sessionId: string, title: string): Promise<SessionInfo>;
  delete(sessionId: string): Promise<void>;
  search(query: string): Promise<SessionSearchHit[]>;
  send(sessionId: string, text: string, options?: { messageId?: string; attachments?: AttachmentUpload[] }): Promise<{ turnId: string }>;
  edit(sessionId: string, messageId: string, text: string): Promise<{ turnId: string }>;
  regenerate(sessionId: string, messageId: string): Promise<{ turnId: string }>;
  switchBranch(sessionId: string, messageId: string): Promise<void>;
  deleteMessage(sessionId: string, messageId: string): Promise<void>;
  setChatSettings(sessionId: string, chat: ChatSettings): Promise<ChatSettings>;
  export(sessionId: string, format: ExportFormat): Promise<{ fileName: string; content: string }>;
  abort(sessionId: string): Promise<void>;
  /** False when no such request is pending. */
  answerApproval(sessionId: string, requestId: string, decision: ApprovalDecision): Promise<boolean>;
  /** False when no such call is running. */
  cancelToolCall(sessionId: string, callId: string): Promise<boolean>;
  runTool(sessionId: string, name: string, args: Record<string, unknown>): Promise<ToolExecuteResult>;
  variables(sessionId: string): Promise<VariableAccess>;
  /** Contract: listeners are called synchronously; returns the unsubscribe function. */
  onEvent(listener: (event: ChatEvent) => void): () => void;
}

/** A session's variables, as the Variables panel needs them. */
export interface VariableAccess {
  list(filter: { type?: VariableType; search?: string }): VariableInfo[];
  get(name: string): Variable | undefined;
  /** False when it does not exist; throws for RULE variables (not deletable). */
  remove(name: string): boolean;
}

/** The tools side (the tool registry + authoring behind an adapter). */
export interface ToolService {
  state(): ToolsState;
  reload(): Promise<ToolsState>;
  create(format: AuthoringFormat, name: string, files?: Record<string, string>): Promise<ToolFiles>;
  read(name: string): Promise<ToolFiles>;
  update(name: string, files: Record<string, string>): Promise<ToolFiles>;
  delete(name: string): Promise<void>;
  onChanged(listener: (state: ToolsState) => void): () => void;
}

export interface SettingsService {
  get(): Settings;
  /** Top-level keys replace (the API's patch is shallow); throws on invalid values. */
  patch(patch: Partial<Settings>): Settings;
  setGroupEnabled(group: string, enabled: boolean): void;
  setToolEnabled(tool: string, enabled: boolean): void;
  onDidChange(listener: (settings: Settings) => void): () => void;
}

export interface ProviderService {
  test(provider: ProviderConfig, apiKey: string | null): Promise<ProviderTestResult>;
  listModels(provider: ProviderConfig, apiKey: string | null): Promise<string[]>;
  detectLocal(): Promise<DetectedProvider[]>;
}

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
  appInfo(): Promise<AppInfo>;
}

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

  const resolveProvider = async (request: { providerId?: string; provider?: ProviderConfig; apiKey?: string }) => {
    const saved = request.providerId ? settings.get().providers.find((p) => p.id === request.providerId) : undefined;
    if (request.providerId && !saved) throw notFound(`no provider with id "${request.providerId}"`);
    const provider = request.provider ?? saved;
    if (!provider) throw apiError('InvalidRequestError', 'name a saved provider (providerId) or pass one (provider)');
    // An explicit key wins (testing a key before saving it); else the one its config names, if any.
    const apiKey = request.apiKey ?? (provider.apiKeySecret ? await secrets.get(provider.apiKeySecret).catch(() => null) : null);
    return { provider, apiKey };
  };

  return {
    listSessions: () => sessions.list(),
    createSession: async ({ title, chat }) => changed(await sessions.create(title, chat)),
    openSession: ({ sessionId }) => sessions.open(sessionId),
    renameSession: async ({ sessionId, title }) => changed(await sessions.rename(sessionId, title)),
    deleteSession: async ({ sessionId }) => {
      await sessions.delete(sessionId);
      return changed(null);
    },
    searchSessions: ({ query }) => sessions.search(query),

    sendMessage: ({ sessionId, text, messageId, attachments }) => sessions.send(sessionId, text, { ...(messageId ? { messageId } : {}), ...(attachments ? { attachments } : {}) }),
    editMessage: ({ sessionId, messageId, text }) => sessions.edit(sessionId, messageId, text),
    regenerate: ({ sessionId, messageId }) => sessions.regenerate(sessionId, messageId),
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

    cancelToolCall: ({ sessionId, callId }) => sessions.cancelToolCall(sessionId, callId),

    listTools: async () => tools.state(),
    reloadTools: () => tools.reload(),
    setGroupEnabled: async ({ group, enabled }) => {
      if (!tools.state().groups.some((g) => g.name === group)) throw notFound(`no tool group "${group}"`);
      settings.setGroupEnabled(group, enabled);
      return tools.state();
    },
    setToolEnabled: async ({ tool, enabled }) => {
      if (!tools.state().groups.some((g) => g.tools.some((t) => t.name === tool))) throw notFound(`no tool "${tool}"`);
      settings.setToolEnabled(tool, enabled);
      return tools.state();
    },
    createTool: ({ format, name, files }) => tools.create(format, name, files),
    readTool: ({ name }) => tools.read(name),
    updateTool: ({ name, files }) => tools.update(name, files),
    deleteTool: async ({ name }) => {
      await tools.delete(name);
      return null;
    },
    runTool: ({ sessionId, name, args }) => sessions.runTool(sessionId, name, args),

    listVariables: async ({ sessionId, type, search }) => (await sessions.variables(sessionId)).list({ type, search }),
    readVariable: async ({ sessionId, name, start, length }) => {
      const variable = (await sessions.variables(sessionId)).get(name);
      if (!variable) throw notFound(`no variable "${name}" in session ${sessionId}`);
      const { value, ...info } = variable;
      // Slice by code points so a surrogate pair is never split (sizes count characters).
      const chars = Array.from(value);
      const from = Math.min(start ?? 0, chars.length);
      const to = length === undefined ? chars.length : Math.min(chars.length, from + length);
      return { variable: info, value: chars.slice(from, to).join(''), start: from, total: chars.length };
    },
    deleteVariable: async ({ sessionId, name }) => {
      if (!(await sessions.variables(sessionId)).remove(name)) throw notFound(`no variable "${name}" in session ${sessionId}`);
      return null;
    },

    getSettings: async () => settings.get(),
    setSettings: async ({ patch }) => settings.patch(patch),

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
      return providers.listModels(provider, apiKey);
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

    appInfo: () => services.appInfo(),
  };
}

/**
 * The event stream of a host: session events as they are, plus tools/settings/sessions changes.
 * Returns a subscribe function and the disposer of the underlying subscriptions.
 */
export function createEventHub(services: Pick<HostServices, 'sessions' | 'tools' | 'settings'>) {
  const listeners = new Set<ApiEventListener>();
  const emit: ApiEventListener = (event) => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch {
        // A broken subscriber must not starve the others (contract: listeners don't throw).
      }
    }
  };
  let lastSessionsKey = '';
  // Re-listing reads the session files: coalesce bursts (a turn appends several messages).
  let listing: Promise<void> | null = null;
  let again = false;
  const emitSessions = (): Promise<void> => {
    if (listing) {
      again = true;
      return listing;
    }
    listing = (async () => {
      do {
        again = false;
        const list = await services.sessions.list().catch(() => null);
        if (!list) continue;
        const key = JSON.stringify(list);
        if (key === lastSessionsKey) continue;
        lastSessionsKey = key;
        emit({ type: 'sessions.changed', sessions: list });
      } while (again);
    })().finally(() => {
      listing = null;
    });
    return listing;
  };
  const disposers = [
    services.sessions.onEvent((event) => {
      emit(event);
      // A new message or a finished turn changes the list's order, counts and titles.
      if (event.type === 'session.message' || event.type === 'session.turn') void emitSessions();
    }),
    services.tools.onChanged((tools) => emit({ type: 'tools.changed', tools })),
    services.settings.onDidChange((next) => {
      emit({ type: 'settings.changed', settings: next });
      // Enable flags in the tools list come from settings.
      emit({ type: 'tools.changed', tools: services.tools.state() });
    }),
  ];
  return {
    emit,
    sessionsChanged: emitSessions,
    onEvent(listener: ApiEventListener): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    dispose() {
      for (const d of disposers) d();
      listeners.clear();
    },
  };
}
