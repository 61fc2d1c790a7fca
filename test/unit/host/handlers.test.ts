// The handlers over an in-memory pair: real settings store, secrets (in-memory backend) and
// provider service (against the fake OpenAI server); scripted sessions and tools.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { apiError, type ApiEvent, type TooldeskApi, type ToolsState } from '../../../shared/api.ts';
import type { ChatEvent, SessionInfo } from '../../../shared/chat.ts';
import { UNTRUSTED_FOLDER_CODE, type ToolGroupInfo } from '../../../shared/tools.ts';
import type { Variable } from '../../../shared/variables.ts';
import { createEventHub } from '../../../electron/runtime/host/event-hub.ts';
import { createHandlers } from '../../../electron/runtime/host/handlers.ts';
import type { HostServices, SessionService, ToolService } from '../../../electron/runtime/host/services/services.ts';
import { sliceVariable } from '../../../electron/runtime/tools/variables/variable-system.ts';
import { createInMemoryClient } from '../../../electron/runtime/host/transport/in-memory-client.ts';
import { createProviderService } from '../../../electron/runtime/host/services/provider-service.ts';
import { createSettingsService } from '../../../electron/runtime/host/services/settings-service.ts';
import { openSettingsStore } from '../../../electron/runtime/store/settings-store.ts';
import { SecretStore, sessionBackend } from '../../../electron/runtime/store/secret-store.ts';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fake-openai-server.ts';

function scriptedSessions() {
  const listeners = new Set<(e: ChatEvent) => void>();
  const sessions: SessionInfo[] = [];
  const now = 1_700_000_000_000;
  const vars = new Map<string, Variable>([
    ['echo_c1_result', { name: 'echo_c1_result', type: 'ToolCallResult', tags: [], size: 6, createdAt: now, updatedAt: now, accessedAt: now, value: 'a😀bcde' }],
    ['Rule/g/r', { name: 'Rule/g/r', type: 'RULE', tags: [], size: 1, createdAt: now, updatedAt: now, accessedAt: now, value: 'r' }],
  ]);
  const find = (id: string) => sessions.find((s) => s.id === id) ?? (() => { throw apiError('NotFoundError', `no session ${id}`); })();
  const service: SessionService = {
    list: async () => [...sessions],
    create: async (title) => {
      const s = { id: `s${sessions.length + 1}`, title: title ?? 'New chat', createdAt: now, updatedAt: now, messageCount: 0 };
      sessions.push(s);
      return s;
    },
    open: async (id) => ({ session: find(id), messages: [], pendingApprovals: [], running: false }),
    rename: async (id, title) => Object.assign(find(id), { title }),
    setFlags: async (id, flags) => Object.assign(find(id), flags),
    delete: async (id) => void sessions.splice(sessions.indexOf(find(id)), 1),
    search: async (q) => sessions.filter((s) => s.title.includes(q)).map((session) => ({ session })),
    send: async (id, text) => {
      find(id);
      const message = { id: 'm1', role: 'user' as const, content: text, createdAt: now };
      listeners.forEach((l) => l({ type: 'session.message', sessionId: id, message }));
      return { turnId: 't1' };
    },
    edit: async () => ({ turnId: 't2' }),
    regenerate: async () => ({ turnId: 't3' }),
    continueTurn: async () => ({ turnId: 't4' }),
    switchBranch: async () => {},
    deleteMessage: async () => {},
    setChatSettings: async (_s, chat) => chat,
    export: async () => ({ fileName: 'x.md', content: '# x\n' }),
    abort: async () => {},
    answerApproval: async (_s, requestId) => requestId === 'pending-1',
    cancelToolCall: async (_s, callId) => callId === 'running-1',
    runTool: async () => ({ status: 'SUCCESS', finalText: 'ok' }),
    rerunToolCall: async (_s, callId) => ({ status: 'SUCCESS', finalText: `again ${callId}` }),
    checkToolArgs: async (_s, _name, args) => (typeof args.text === 'string' ? { ok: true } : { ok: false, message: 'text: required' }),
    setToolSelection: async (_s, selection) => selection,
    variables: async (id) => {
      find(id);
      return {
        list: ({ type }) => [...vars.values()].filter((v) => !type || v.type === type).map(({ value: _v, ...info }) => info),
        read: (name, start, length) => {
          const variable = vars.get(name);
          return variable && sliceVariable(variable, start, length);
        },
        remove: (name) => {
          if (vars.get(name)?.type === 'RULE') throw apiError('VariableError', 'RULE variables cannot be deleted');
          return vars.delete(name);
        },
      };
    },
    onEvent: (l) => {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
  return service;
}

const PROJECT_FOLDER = '/work/proj/.omp/tools';

function scriptedTools(settings: () => { groupDefaults: Record<string, boolean>; trustedProjectFolders?: string[] }): ToolService {
  const listeners = new Set<(s: ToolsState) => void>();
  const state = (): ToolsState => {
    const untrusted = !(settings().trustedProjectFolders ?? []).includes(PROJECT_FOLDER);
    const group: ToolGroupInfo = {
      name: 'demo',
      enabled: settings().groupDefaults.demo ?? false,
      builtin: false,
      tools: [],
    };
    return { groups: [group], diagnostics: untrusted ? [{ severity: 'warning', file: PROJECT_FOLDER, message: 'untrusted project folder — review', code: UNTRUSTED_FOLDER_CODE }] : [] };
  };
  return {
    state,
    reload: async () => {
      const s = state();
      listeners.forEach((l) => l(s));
      return s;
    },
    create: async (format, name) => ({ format, name, paths: [`/tools/${name}.py`], tools: [name], diagnostics: [] }),
    read: async (name) => {
      throw apiError('NotFoundError', `no tool ${name}`);
    },
    update: async (name, files) => ({ format: 'script', name, dir: `/tools/${name}`, files }),
    delete: async () => {},
    onChanged: (l) => {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
}

let fake: FakeOpenAIServer | null = null;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  cleanups.splice(0).forEach((c) => c());
  await fake?.close();
  fake = null;
});

function setup(): { api: TooldeskApi; events: ApiEvent[]; services: HostServices } {
  const home = mkdtempSync(join(tmpdir(), 'td-'));
  const store = openSettingsStore(home);
  const settings = createSettingsService(store);
  const services: HostServices = {
    sessions: scriptedSessions(),
    tools: scriptedTools(() => settings.get()),
    settings,
    providers: createProviderService({ timeoutMs: 5000, detect: { candidates: [] } }),
    secrets: new SecretStore({ keyring: sessionBackend() }),
    appInfo: async () => {
      throw new Error('not in this test');
    },
  };
  const hub = createEventHub(services);
  const handlers = createHandlers(services, { sessionsChanged: () => void hub.sessionsChanged() });
  const api = createInMemoryClient({ handlers, onEvent: hub.onEvent });
  const events: ApiEvent[] = [];
  cleanups.push(hub.onEvent((e) => events.push(e)), () => hub.dispose(), () => store.close());
  return { api, events, services };
}

describe('API handlers', () => {
  it('trusts only a project folder that is listed as untrusted, remembers it in settings, and can withdraw it', async () => {
    const { api, services } = setup();
    await expect(api.trustToolFolder({ path: '/elsewhere/.omp/tools', trusted: true })).rejects.toMatchObject({ name: 'NotFoundError', message: expect.stringContaining('/elsewhere/.omp/tools') });
    expect(services.settings.get().trustedProjectFolders).toEqual([]);
    const after = await api.trustToolFolder({ path: PROJECT_FOLDER, trusted: true });
    expect(services.settings.get().trustedProjectFolders).toEqual([PROJECT_FOLDER]);
    expect(after.diagnostics).toEqual([]);
    await api.trustToolFolder({ path: PROJECT_FOLDER, trusted: true });
    expect(services.settings.get().trustedProjectFolders).toEqual([PROJECT_FOLDER]);
    const revoked = await api.trustToolFolder({ path: PROJECT_FOLDER, trusted: false });
    expect(services.settings.get().trustedProjectFolders).toEqual([]);
    expect(revoked.diagnostics.map((d) => d.code)).toEqual([UNTRUSTED_FOLDER_CODE]);
  });

  it('creates, renames, searches and deletes sessions, announcing each change', async () => {
    const { api, events } = setup();
    const s = await api.createSession({ title: 'alpha' });
    await api.renameSession({ sessionId: s.id, title: 'beta' });
    expect((await api.searchSessions({ query: 'bet' })).map((h) => h.session.title)).toEqual(['beta']);
    await api.deleteSession({ sessionId: s.id });
    expect(await api.listSessions()).toEqual([]);
    await expect.poll(() => events.filter((e) => e.type === 'sessions.changed').length).toBe(3);
    await expect(api.openSession({ sessionId: s.id })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('forwards session events unchanged', async () => {
    const { api, events } = setup();
    const s = await api.createSession();
    expect(await api.sendMessage({ sessionId: s.id, text: 'hi' })).toEqual({ turnId: 't1' });
    expect(events).toContainEqual({ type: 'session.message', sessionId: s.id, message: expect.objectContaining({ role: 'user', content: 'hi' }) });
  });

  it('answers approvals, and says when there is nothing to answer', async () => {
    const { api } = setup();
    const s = await api.createSession();
    expect(await api.answerApproval({ sessionId: s.id, requestId: 'pending-1', decision: { decision: 'once' } })).toBeNull();
    await expect(api.answerApproval({ sessionId: s.id, requestId: 'gone', decision: { decision: 'reject', reason: 'no' } })).rejects.toMatchObject({
      name: 'NotFoundError',
      message: expect.stringContaining('already answered'),
    });
  });

  it('cancels one running tool call, and says false when it already finished', async () => {
    const { api } = setup();
    const s = await api.createSession();
    expect(await api.cancelToolCall({ sessionId: s.id, callId: 'running-1' })).toBe(true);
    expect(await api.cancelToolCall({ sessionId: s.id, callId: 'done-1' })).toBe(false);
    await expect(api.cancelToolCall({ sessionId: s.id, callId: '' })).rejects.toMatchObject({ name: 'InvalidRequestError' });
  });

  it('run again, argument checks and the chat tool selection, with hostile requests refused', async () => {
    const { api } = setup();
    const s = await api.createSession();
    expect(await api.rerunToolCall({ sessionId: s.id, callId: 'c1' })).toMatchObject({ finalText: 'again c1' });
    expect(await api.checkToolArgs({ sessionId: s.id, name: 'echo', args: {} })).toEqual({ ok: false, message: 'text: required' });
    expect(await api.setToolSelection({ sessionId: s.id, selection: { tools: ['a'], pinned: [] } })).toEqual({ tools: ['a'], pinned: [] });
    expect(await api.setToolSelection({ sessionId: s.id, selection: null })).toBeNull();
    for (const selection of [['a'], { tools: 'a', pinned: [] }, { tools: [1], pinned: [] }, { tools: [], pinned: [], extra: 1 }, { tools: [] }]) {
      await expect(api.setToolSelection({ sessionId: s.id, selection: selection as never })).rejects.toMatchObject({ name: 'InvalidRequestError' });
    }
    await expect(api.answerApproval({ sessionId: s.id, requestId: 'pending-1', decision: { decision: 'once', args: [] as never } })).rejects.toMatchObject({ name: 'InvalidRequestError' });
    await api.answerApproval({ sessionId: s.id, requestId: 'pending-1', decision: { decision: 'once', args: { text: 'edited' } } });
  });

  it('reads variables in code-point slices and refuses to delete rules', async () => {
    const { api } = setup();
    const s = await api.createSession();
    expect((await api.listVariables({ sessionId: s.id, type: 'RULE' })).map((v) => v.name)).toEqual(['Rule/g/r']);
    const slice = await api.readVariable({ sessionId: s.id, name: 'echo_c1_result', start: 1, length: 2 });
    expect(slice).toMatchObject({ value: '😀b', start: 1, total: 6, variable: { name: 'echo_c1_result' } });
    expect(slice.variable).not.toHaveProperty('value');
    expect((await api.readVariable({ sessionId: s.id, name: 'echo_c1_result', start: 99 })).value).toBe('');
    await expect(api.readVariable({ sessionId: s.id, name: 'nope' })).rejects.toMatchObject({ name: 'NotFoundError' });
    await expect(api.deleteVariable({ sessionId: s.id, name: 'Rule/g/r' })).rejects.toMatchObject({ name: 'VariableError' });
    expect(await api.deleteVariable({ sessionId: s.id, name: 'echo_c1_result' })).toBeNull();
    await expect(api.deleteVariable({ sessionId: s.id, name: 'echo_c1_result' })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('persists group toggles in settings and announces settings and tools changes', async () => {
    const { api, events } = setup();
    expect((await api.listTools()).groups[0]).toMatchObject({ name: 'demo', enabled: false });
    const after = await api.setGroupEnabled({ group: 'demo', enabled: true });
    expect(after.groups[0]!.enabled).toBe(true);
    expect((await api.getSettings()).groupDefaults).toEqual({ demo: true });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['settings.changed', 'tools.changed']));
    await expect(api.setGroupEnabled({ group: 'nope', enabled: true })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('patches settings shallowly and refuses invalid values without writing anything', async () => {
    const { api } = setup();
    const next = await api.setSettings({ patch: { systemPrompt: 'be brief' } });
    expect(next.systemPrompt).toBe('be brief');
    await expect(api.setSettings({ patch: { systemPrompt: 'x', limits: { maxSteps: -1 } as never } })).rejects.toMatchObject({
      name: 'SettingsValidationError',
    });
    expect((await api.getSettings()).systemPrompt).toBe('be brief');
  });

  it('stores secrets without ever returning them', async () => {
    const { api } = setup();
    expect(await api.hasSecret({ name: 'OPENAI_API_KEY' })).toBe(false);
    expect(await api.setSecret({ name: 'OPENAI_API_KEY', value: 'sk-1' })).toBeNull();
    expect(await api.hasSecret({ name: 'OPENAI_API_KEY' })).toBe(true);
    await api.deleteSecret({ name: 'OPENAI_API_KEY' });
    expect(await api.hasSecret({ name: 'OPENAI_API_KEY' })).toBe(false);
    await expect(api.setSecret({ name: 'bad name!', value: 'x' })).rejects.toMatchObject({ name: 'InvalidSecretNameError' });
  });

  it('tests providers and lists models with the stored key', async () => {
    fake = await startFakeOpenAI({ models: ['m1', 'm2'], apiKey: 'sk-test' });
    const { api } = setup();
    const provider = { id: 'fake', name: 'Fake', kind: 'openai-compatible' as const, baseURL: fake.url, model: 'm1', apiKeySecret: 'provider.fake.apiKey' };
    expect(await api.testProvider({ provider })).toMatchObject({ ok: false });
    expect(await api.testProvider({ provider, apiKey: 'sk-test' })).toMatchObject({ ok: true, models: ['m1', 'm2'] });
    await api.setSettings({ patch: { providers: [provider], activeProviderId: 'fake' } });
    await api.setSecret({ name: 'provider.fake.apiKey', value: 'sk-test' });
    expect(await api.listProviders()).toEqual([{ ...provider, active: true, hasApiKey: true }]);
    expect(await api.listModels({ providerId: 'fake' })).toEqual(['m1', 'm2']);
    await expect(api.listModels({ providerId: 'other' })).rejects.toMatchObject({ name: 'NotFoundError' });
    expect(await api.detectLocalProviders()).toEqual([]);
  });

  it('saves a provider and its key in one setSettings call, all or nothing', async () => {
    const { api, events, services } = setup();
    const provider = { id: 'p', name: 'P', kind: 'openai-compatible' as const, baseURL: 'http://127.0.0.1:1/v1', model: 'm', apiKeySecret: 'provider.p.apiKey' };
    await api.setSettings({ patch: { providers: [provider], activeProviderId: 'p' }, secrets: { 'provider.p.apiKey': 'sk-1' } });
    expect(await api.listProviders()).toEqual([{ ...provider, active: true, hasApiKey: true }]);
    expect(await services.secrets.get('provider.p.apiKey')).toBe('sk-1');
    await expect.poll(() => events.filter((e) => e.type === 'settings.changed')).toHaveLength(1);

    // Invalid settings: refused before any secret is stored.
    await expect(api.setSettings({ patch: { activeProviderId: 7 as never }, secrets: { 'provider.p.apiKey': 'sk-2', OTHER: 'x' } })).rejects.toMatchObject({ name: 'SettingsValidationError' });
    expect(await services.secrets.get('provider.p.apiKey')).toBe('sk-1');
    expect(await api.hasSecret({ name: 'OTHER' })).toBe(false);

    // The settings write fails (a full disk): the secrets are put back as they were.
    const patch = services.settings.patch;
    services.settings.patch = () => {
      throw apiError('FileError', 'Could not save settings to settings.json: the disk is full; free some space and try again (ENOSPC). The settings were not changed.');
    };
    await expect(api.setSettings({ patch: { providers: [] }, secrets: { 'provider.p.apiKey': null, NEW_ONE: 'v' } })).rejects.toMatchObject({ name: 'FileError', message: expect.stringMatching(/disk is full/) });
    services.settings.patch = patch;
    expect(await services.secrets.get('provider.p.apiKey')).toBe('sk-1');
    expect(await api.hasSecret({ name: 'NEW_ONE' })).toBe(false);

    // null deletes; bad shapes are refused by the transport.
    await api.setSettings({ patch: { providers: [] , activeProviderId: null }, secrets: { 'provider.p.apiKey': null } });
    expect(await api.hasSecret({ name: 'provider.p.apiKey' })).toBe(false);
    await expect(api.setSettings({ patch: {}, secrets: { X: 5 as never } })).rejects.toMatchObject({ name: 'InvalidRequestError' });
  });
});
