// The real host (settings, sessions, chat engine, variables) over the real WebSocket transport,
// against the fake OpenAI server: a tool call with an inline approval, variables, a restart.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { ApiEvent } from '../../../shared/api.ts';
import { SecretStore, sessionBackend } from '../../../electron/runtime/store/secret-store.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer } from '../../support/fake-openai-server.ts';
import { hostApps, startHost } from '../../support/host-app.ts';

const apps = hostApps();
afterEach(() => apps.closeAll());

const startApp = (home: string) => apps.start(home);

describe('host + browser transport + chat engine', () => {
  let fake: FakeOpenAIServer;
  afterEach(async () => fake?.close());

  it('runs a turn with an approved tool call, keeps the variable, and survives a restart', async () => {
    fake = await startFakeOpenAI({ turns: [fakeTurn.toolCall('WriteVar', { name: 'greeting', value: 'hello world' }), fakeTurn.text('Stored it.')] });
    const home = mkdtempSync(join(tmpdir(), 'td-'));
    const first = await startApp(home);
    const { client, events } = first;

    expect(await client.appInfo()).toMatchObject({ browserMode: true, home, secrets: { backend: 'keyring' } });
    await client.setSettings({
      patch: {
        providers: [{ id: 'fake', name: 'Fake', kind: 'openai-compatible', baseURL: fake.url, model: 'fake-model' }],
        activeProviderId: 'fake',
        permissionOverrides: { WriteVar: { executionPolicy: 'ask-always' } },
      },
    });
    const tools = await client.setGroupEnabled({ group: 'vars', enabled: true });
    expect(tools.groups.find((g) => g.name === 'vars')).toMatchObject({ enabled: true, builtin: true });

    const session = await client.createSession();
    const { turnId } = await client.sendMessage({ sessionId: session.id, text: 'remember hello world' });
    await expect.poll(() => events.find((e) => e.type === 'approval.requested')).toBeTruthy();
    const asked = events.find((e) => e.type === 'approval.requested')!;
    if (asked.type !== 'approval.requested') throw new Error('unreachable');
    expect(asked.request).toMatchObject({ toolName: 'WriteVar', type: 'execution', args: { name: 'greeting', value: 'hello world' } });
    expect((await client.openSession({ sessionId: session.id })).pendingApprovals).toHaveLength(1);

    await client.answerApproval({ sessionId: session.id, requestId: asked.request.id, decision: { decision: 'once' } });
    await expect.poll(() => events.some((e) => e.type === 'session.turn' && e.state === 'finished' && e.turnId === turnId)).toBe(true);
    const finished = events.find((e) => e.type === 'session.turn' && e.state === 'finished');
    expect(finished).toMatchObject({ stopReason: 'stop' });
    expect(events.some((e) => e.type === 'approval.resolved' && e.decision?.decision === 'once')).toBe(true);
    expect(events.some((e) => e.type === 'session.delta')).toBe(true);
    expect(events.some((e) => e.type === 'sessions.changed')).toBe(true);

    const snapshot = await client.openSession({ sessionId: session.id });
    expect(snapshot.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(snapshot.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Stored it.' });
    expect((await client.listVariables({ sessionId: session.id, type: 'LLMAdd' })).map((v) => v.name)).toEqual(['greeting']);
    expect(await client.readVariable({ sessionId: session.id, name: 'greeting', start: 6 })).toMatchObject({ value: 'world', total: 11 });

    // Restart: a new host on the same home sees the session, its history and its variables.
    await apps.closeAll();
    const second = await startApp(home);
    expect((await second.client.listSessions()).map((s) => s.id)).toEqual([session.id]);
    expect((await second.client.openSession({ sessionId: session.id })).messages).toHaveLength(4);
    expect((await second.client.readVariable({ sessionId: session.id, name: 'greeting' })).value).toBe('hello world');
    expect((await second.client.listTools()).groups.find((g) => g.name === 'vars')?.enabled).toBe(true);
  });

  it('reports a missing provider as a finished turn with an error, and runs tools by hand', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-'));
    const { client, events } = await startApp(home);
    await client.setGroupEnabled({ group: 'vars', enabled: true });
    const session = await client.createSession({ title: 'no model' });
    const result = await client.runTool({ sessionId: session.id, name: 'WriteVar', args: { name: 'n', value: 'v' } });
    expect(result.status).toBe('SUCCESS');
    expect((await client.readVariable({ sessionId: session.id, name: 'n' })).value).toBe('v');
    await client.sendMessage({ sessionId: session.id, text: 'hello?' });
    await expect.poll(() => events.find((e) => e.type === 'session.turn' && e.state === 'finished')).toMatchObject({
      stopReason: 'error',
      error: { name: 'NoProvider' },
    });
    await expect(client.sendMessage({ sessionId: 'missing', text: 'x' })).rejects.toMatchObject({ name: 'NotFoundError' });
    await expect(client.deleteVariable({ sessionId: session.id, name: 'nope' })).rejects.toMatchObject({ name: 'NotFoundError' });
  });
});

describe('cancelling one tool call', () => {
  let fake: FakeOpenAIServer;
  afterEach(async () => fake?.close());

  it('ends a long-running call with a clear result while the turn goes on to the final answer', async () => {
    fake = await startFakeOpenAI({ turns: [fakeTurn.toolCall('script_slow', { seconds: 30 }), fakeTurn.text('Understood, it was cancelled.')] });
    const home = mkdtempSync(join(tmpdir(), 'td-'));
    const dir = join(home, 'tools', 'slow');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'tool.json'),
      JSON.stringify({ name: 'slow', description: 'Sleeps.', parameters: { type: 'object', properties: { seconds: { type: 'number' } } } }),
    );
    writeFileSync(join(dir, 'script.js'), "setTimeout(() => process.stdout.write('woke up'), 30_000);\n");
    const { client, events } = await startApp(home);
    await client.setSettings({
      patch: {
        providers: [{ id: 'fake', name: 'Fake', kind: 'openai-compatible', baseURL: fake.url, model: 'fake-model' }],
        activeProviderId: 'fake',
        permissionOverrides: { script_slow: { executionPolicy: 'auto' } },
      },
    });
    await client.setGroupEnabled({ group: 'script', enabled: true });
    const session = await client.createSession();
    const { turnId } = await client.sendMessage({ sessionId: session.id, text: 'sleep a while' });
    await expect.poll(() => events.find((e) => e.type === 'tool.started')).toBeTruthy();
    const started = events.find((e) => e.type === 'tool.started')!;
    if (started.type !== 'tool.started') throw new Error('unreachable');

    const t0 = Date.now();
    expect(await client.cancelToolCall({ sessionId: session.id, callId: started.callId })).toBe(true);
    await expect.poll(() => events.find((e) => e.type === 'tool.finished')).toBeTruthy();
    expect(Date.now() - t0).toBeLessThan(10_000);
    const finished = events.find((e) => e.type === 'tool.finished')!;
    if (finished.type !== 'tool.finished') throw new Error('unreachable');
    expect(finished.result).toMatchObject({ status: 'ERROR', error: expect.stringContaining('cancelled by the user') });

    // The turn was not aborted: the model got the result and answered.
    await expect.poll(() => events.find((e) => e.type === 'session.turn' && e.state === 'finished' && e.turnId === turnId)).toMatchObject({ stopReason: 'stop' });
    const toolMessage = fake.chatRequests().at(-1)!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(String(toolMessage?.content)).toContain('cancelled by the user');
    expect((await client.openSession({ sessionId: session.id })).messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Understood, it was cancelled.' });
    expect(await client.cancelToolCall({ sessionId: session.id, callId: started.callId })).toBe(false);

    // A manual run (the Tools panel's Run) is cancellable the same way.
    const manual = client.runTool({ sessionId: session.id, name: 'script_slow', args: { seconds: 30 } });
    await expect.poll(() => events.filter((e) => e.type === 'tool.started').length).toBe(2);
    const second = events.filter((e) => e.type === 'tool.started').at(-1)!;
    if (second.type !== 'tool.started') throw new Error('unreachable');
    expect(await client.cancelToolCall({ sessionId: session.id, callId: second.callId })).toBe(true);
    expect(await manual).toMatchObject({ status: 'ERROR', error: expect.stringContaining('cancelled by the user') });
  });
});

describe('approvals with no browser attached', () => {
  let fake: FakeOpenAIServer;
  afterEach(async () => fake?.close());

  it('wait (never allowed), and are rejected by abort, by deleting the session and by closing the host', async () => {
    fake = await startFakeOpenAI({ script: () => fakeTurn.toolCall('WriteVar', { name: 'k', value: 'v' }) });
    const home = mkdtempSync(join(tmpdir(), 'td-'));
    const host = await startHost({ home, browserMode: true, secrets: new SecretStore({ keyring: sessionBackend() }), watchTools: false });
    onTestFinished(() => host.close());
    const api = host.handlers;
    const events: ApiEvent[] = [];
    host.onEvent((e) => events.push(e));
    await api.setSettings({
      patch: {
        providers: [{ id: 'fake', name: 'Fake', kind: 'openai-compatible', baseURL: fake.url, model: 'fake-model' }],
        activeProviderId: 'fake',
        permissionOverrides: { WriteVar: { executionPolicy: 'ask-always' } },
        limits: { ...(await api.getSettings({})).limits, maxSteps: 1 },
      },
    });
    await api.setGroupEnabled({ group: 'vars', enabled: true });
    const pendingIn = async (sessionId: string) => (await api.openSession({ sessionId })).pendingApprovals.length;
    const toolResults = () => events.flatMap((e) => (e.type === 'tool.finished' ? [e.result] : []));

    // 1. Abort.
    const a = await api.createSession({});
    await api.sendMessage({ sessionId: a.id, text: 'store it' });
    await expect.poll(() => pendingIn(a.id)).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(await pendingIn(a.id)).toBe(1); // still waiting, not allowed
    await api.abort({ sessionId: a.id });
    await expect.poll(() => toolResults().length).toBe(1);
    expect(toolResults()[0]).toMatchObject({ status: 'EXECUTION_REJECTED' });
    expect(events).toContainEqual(expect.objectContaining({ type: 'approval.resolved', sessionId: a.id, decision: null }));

    // 2. Deleting the session.
    const b = await api.createSession({});
    await api.sendMessage({ sessionId: b.id, text: 'store it' });
    await expect.poll(() => pendingIn(b.id)).toBe(1);
    await api.deleteSession({ sessionId: b.id });
    await expect.poll(() => toolResults().length).toBe(2);
    expect(toolResults()[1]).toMatchObject({ status: 'EXECUTION_REJECTED' });

    // 3. Closing the host (the serve process stopping).
    const c = await api.createSession({});
    await api.sendMessage({ sessionId: c.id, text: 'store it' });
    await expect.poll(() => pendingIn(c.id)).toBe(1);
    await host.close();
    // The host's events stop with it: the session file records the request as dropped.
    const records = readFileSync(join(home, 'sessions', `${c.id}.jsonl`), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(records).toContainEqual(expect.objectContaining({ t: 'approval', decision: null }));
    // Nothing was ever allowed.
    expect(events.some((e) => e.type === 'tool.finished' && e.result.status === 'SUCCESS')).toBe(false);
  });
});
