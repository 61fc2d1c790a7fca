// MCP elicitation and sampling in the app: the real "everything" server asks during a tool call the
// fake model made; the question becomes a card event in that chat, the answer goes back to the
// server, sampling is answered by the chat's provider only after the user allowed it, and an
// aborted turn drops the card.
import { mkdtempSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../electron/runtime/create-runtime.ts';
import { SecretStore, sessionBackend } from '../../../electron/runtime/store/secret-store.ts';
import type { ApiEvent } from '../../../shared/api.ts';
import type { McpInteractionRequest } from '../../../shared/mcp.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fake-openai-server.ts';
import { EVERYTHING } from '../../support/mcp-servers.ts';

let runtime: Runtime | undefined;
let fake: FakeOpenAIServer | undefined;
afterEach(async () => {
  await runtime?.close();
  await fake?.close();
  runtime = undefined;
});

async function chatWithEverything(turns: FakeTurn[]) {
  fake = await startFakeOpenAI({ turns });
  const home = mkdtempSync('/var/tmp/td-mcp-chat-');
  runtime = await createRuntime({ home, secrets: new SecretStore({ keyring: sessionBackend() }), tools: { roots: [mkdtempSync('/var/tmp/td-mcp-roots-')] } });
  const host = await runtime.host({ browserMode: true });
  const events: ApiEvent[] = [];
  host.onEvent((e) => events.push(e));
  const h = host.handlers;
  await h.setSettings({
    patch: {
      providers: [{ id: 'fake', name: 'Fake', kind: 'openai-compatible', baseURL: fake.url, model: 'fake-model' }],
      activeProviderId: 'fake',
      permissionOverrides: { 'ev__trigger-elicitation-request': { executionPolicy: 'auto' }, 'ev__trigger-sampling-request': { executionPolicy: 'auto' } },
    },
  });
  await h.addMcpServer({ name: 'ev', command: process.execPath, args: [EVERYTHING, 'stdio'] });
  await h.setGroupEnabled({ group: 'ev', enabled: true });
  // The elicitation and sampling tools appear after initialize (list_changed).
  await expect.poll(async () => (await h.listTools({})).groups.find((g) => g.name === 'ev')?.tools.some((t) => t.name === 'ev__trigger-sampling-request'), { timeout: 30_000 }).toBe(true);
  const session = await h.createSession({});
  const asked = () => events.filter((e): e is Extract<ApiEvent, { type: 'mcp.interaction.requested' }> => e.type === 'mcp.interaction.requested').map((e) => e.request);
  const finished = (turnId: string) => events.find((e) => e.type === 'session.turn' && e.state === 'finished' && e.turnId === turnId);
  return { h, events, session, asked, finished };
}

describe('MCP elicitation and sampling as chat cards', () => {
  it('a form request shows its fields; the answer reaches the server and the tool result', async () => {
    const { h, session, asked, finished, events } = await chatWithEverything([fakeTurn.toolCall('ev__trigger-elicitation-request', {}), fakeTurn.text('Thanks.')]);
    const { turnId } = await h.sendMessage({ sessionId: session.id, text: 'ask me' });
    await expect.poll(() => asked().length, { timeout: 20_000 }).toBe(1);
    const card = asked()[0]! as Extract<McpInteractionRequest, { kind: 'form' }>;
    expect(card).toMatchObject({ kind: 'form', server: 'ev', sessionId: session.id, callId: expect.any(String) });
    expect(card.fields.map((f) => f.name)).toContain('name');
    expect((await h.openSession({ sessionId: session.id })).pendingMcpInteractions).toEqual([card]);

    await expect(h.answerMcpInteraction({ sessionId: session.id, requestId: card.id, answer: { action: 'accept', content: { name: { x: 1 } as never } } })).rejects.toThrow(/strings, numbers or booleans/);
    await h.answerMcpInteraction({ sessionId: session.id, requestId: card.id, answer: { action: 'accept', content: { name: 'Grace Hopper', check: true } } });
    await expect.poll(() => finished(turnId), { timeout: 20_000 }).toBeTruthy();
    const tool = (await h.openSession({ sessionId: session.id })).messages.find((m) => m.role === 'tool');
    expect(JSON.stringify(tool)).toContain('Grace Hopper');
    expect(events.some((e) => e.type === 'mcp.interaction.resolved' && e.requestId === card.id && e.answer?.action === 'accept')).toBe(true);
    await expect(h.answerMcpInteraction({ sessionId: session.id, requestId: card.id, answer: { action: 'decline' } })).rejects.toThrow(/no pending MCP request/);
  });

  it('sampling asks first; allowed, the chat’s provider answers; aborting the turn drops a waiting card', async () => {
    const { h, session, asked, finished, events } = await chatWithEverything([
      fakeTurn.toolCall('ev__trigger-sampling-request', { prompt: 'Say hi', maxTokens: 20 }),
      fakeTurn.text('hi from the model'),
      fakeTurn.text('Done.'),
      fakeTurn.toolCall('ev__trigger-sampling-request', { prompt: 'again', maxTokens: 20 }),
    ]);
    const first = await h.sendMessage({ sessionId: session.id, text: 'sample' });
    await expect.poll(() => asked().length, { timeout: 20_000 }).toBe(1);
    const card = asked()[0]! as Extract<McpInteractionRequest, { kind: 'sampling' }>;
    expect(card).toMatchObject({ kind: 'sampling', server: 'ev', maxTokens: 20 });
    expect(card.messages.map((m) => m.text).join(' ')).toContain('Say hi');
    // Nothing went to the model before the user allowed it.
    expect(fake!.chatRequests()).toHaveLength(1);
    await h.answerMcpInteraction({ sessionId: session.id, requestId: card.id, answer: { action: 'accept' } });
    await expect.poll(() => finished(first.turnId), { timeout: 20_000 }).toBeTruthy();
    const sampleRequest = fake!.chatRequests()[1]!;
    expect(JSON.stringify(sampleRequest.body)).toContain('Say hi');
    expect(JSON.stringify(sampleRequest.body)).not.toContain('"tools"');
    const tool = (await h.openSession({ sessionId: session.id })).messages.find((m) => m.role === 'tool');
    expect(JSON.stringify(tool)).toContain('hi from the model');

    const second = await h.sendMessage({ sessionId: session.id, text: 'sample again' });
    await expect.poll(() => asked().length, { timeout: 20_000 }).toBe(2);
    await h.abort({ sessionId: session.id });
    await expect.poll(() => finished(second.turnId), { timeout: 20_000 }).toBeTruthy();
    expect(events.some((e) => e.type === 'mcp.interaction.resolved' && e.requestId === asked()[1]!.id && e.answer === null)).toBe(true);
    expect((await h.openSession({ sessionId: session.id })).pendingMcpInteractions).toBeUndefined();
  });
});
