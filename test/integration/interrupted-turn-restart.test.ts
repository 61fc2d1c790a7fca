// A turn cut off by killing the browser-mode server (`tooldesk serve`, a real process, SIGKILL)
// and a new server started on the same home, talked to over its WebSocket API like the page does.
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { ApiEvent } from '../../shared/api.ts';
import type { ChatMessage } from '../../shared/chat.ts';
import { createWsClient, type SocketLike, type WsClient } from '../../renderer/src/api/ws-client.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer } from '../support/fake-openai-server.ts';
import { startAppServer, type AppServer } from '../e2e/support/app-server.ts';
import { makeHome } from '../e2e/support/e2e-home.ts';
import { e2eScript, FINAL_PREFIX } from '../e2e/support/fake-model.ts';
import { ensureRendererBuilt } from '../e2e/support/renderer-build.ts';

vi.setConfig({ testTimeout: 120_000 });

const SLOW_ANSWER = 'This answer streams slowly, word by word, until the server is killed.';
let fake: FakeOpenAIServer;
let slowOnce = true;
const servers: AppServer[] = [];
const clients: WsClient[] = [];
const homes: string[] = [];

beforeAll(async () => {
  await ensureRendererBuilt();
  fake = await startFakeOpenAI({
    script: (request, turn) => {
      const said = request.body.messages.at(-1)?.content;
      if (said === 'stream slowly' && slowOnce) {
        slowOnce = false;
        return fakeTurn.text(SLOW_ANSWER, { deltaChars: 2, delayMs: 150 });
      }
      if (said === 'stream slowly') return fakeTurn.text('The answer, in one go.');
      return e2eScript(request, turn);
    },
  });
}, 180_000);

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const server of servers.splice(0)) await server.stop();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

afterAll(async () => {
  await fake?.close();
});

async function start(home: string): Promise<{ server: AppServer; api: WsClient }> {
  const server = await startAppServer({ home });
  servers.push(server);
  const url = new URL(server.url);
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? url.searchParams.get('token');
  const api = createWsClient({ url: `ws://${url.host}/api?token=${token}`, createSocket: (u) => new WebSocket(u) as unknown as SocketLike });
  clients.push(api);
  return { server, api };
}

function nextEvent(api: WsClient, match: (event: ApiEvent) => boolean): Promise<ApiEvent> {
  return new Promise((resolve) => {
    const dispose = api.onEvent((event) => {
      if (!match(event)) return;
      dispose();
      resolve(event);
    });
  });
}

async function kill(server: AppServer): Promise<void> {
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGKILL');
  await exited;
}

const finished = (sessionId: string) => (event: ApiEvent) => event.type === 'session.turn' && event.sessionId === sessionId && event.state === 'finished';
const lastText = (messages: ChatMessage[]) => {
  const last = messages.at(-1);
  return last?.role === 'assistant' ? last.content : undefined;
};

describe('a server killed mid-turn and started again', () => {
  it('a call waiting for approval: the card is back; approved, the call runs and the turn finishes', async () => {
    const home = makeHome({ providerUrl: fake.url });
    homes.push(home);
    const first = await start(home);
    const { id } = await first.api.createSession({});
    const asked = nextEvent(first.api, (event) => event.type === 'approval.requested');
    await first.api.sendMessage({ sessionId: id, text: 'call script_echo {"text": "after the restart"}' });
    await asked;
    await kill(first.server);

    const second = await start(home);
    const snapshot = await second.api.openSession({ sessionId: id });
    expect(snapshot.running).toBe(true);
    expect(snapshot.interrupted).toBeUndefined();
    expect(snapshot.pendingApprovals).toHaveLength(1);
    expect(snapshot.pendingApprovals[0]).toMatchObject({ toolName: 'script_echo', args: { text: 'after the restart' }, note: 'Asked again: Tooldesk stopped while this call waited for your answer.' });
    const done = nextEvent(second.api, finished(id));
    await second.api.answerApproval({ sessionId: id, requestId: snapshot.pendingApprovals[0]!.id, decision: { decision: 'once' } });
    expect(await done).toMatchObject({ stopReason: 'stop' });
    const after = await second.api.openSession({ sessionId: id });
    expect(after.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(lastText(after.messages)).toBe(`${FINAL_PREFIX} echo: after the restart`);
  });

  it('a turn cut while the model streamed: Interrupted with Retry; Retry gives the answer', async () => {
    const home = makeHome({ providerUrl: fake.url });
    homes.push(home);
    const first = await start(home);
    const { id } = await first.api.createSession({});
    const streaming = nextEvent(first.api, (event) => event.type === 'session.delta');
    await first.api.sendMessage({ sessionId: id, text: 'stream slowly' });
    await streaming;
    await kill(first.server);

    const second = await start(home);
    const snapshot = await second.api.openSession({ sessionId: id });
    expect(snapshot.running).toBe(false);
    expect(snapshot.messages.map((m) => m.role)).toEqual(['user']);
    expect(snapshot.interrupted).toMatchObject({ during: 'answer', calls: [], retryFrom: snapshot.messages[0]!.id });
    const done = nextEvent(second.api, finished(id));
    await second.api.regenerate({ sessionId: id, messageId: snapshot.interrupted!.retryFrom! });
    expect(await done).toMatchObject({ stopReason: 'stop' });
    const after = await second.api.openSession({ sessionId: id });
    expect(after.interrupted).toBeUndefined();
    expect(lastText(after.messages)).toBe('The answer, in one go.');
  });
});
