// `tooldesk chat --session ID /continue` on a session a restart cut off, as a real process against
// the fake server: the session files are what a killed app leaves (a turn started, never ended).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer } from '../support/fake-openai-server.ts';
import { runCli, weatherHome } from '../support/run-cli.ts';

vi.setConfig({ testTimeout: 120_000 });

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAI({ turns: [] });
});
afterAll(async () => {
  await server.close();
});

const chatArgs = (prompt: string, ...more: string[]) => ['chat', '--base-url', server.url, '--model', 'fake-model', ...more, prompt];

/** A session file as a kill leaves it: the turn's start and its messages so far, no end. */
function cutSession(home: string, id: string, records: object[]): void {
  const dir = join(home, 'sessions');
  mkdirSync(dir, { recursive: true });
  const lines = [{ t: 'session', v: 1, id, createdAt: 1000, title: 'cut' }, { t: 'turn', at: 1001, turnId: 'turn-cut', state: 'started' }, ...records];
  writeFileSync(join(dir, `${id}.jsonl`), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
}

const user = { t: 'message', at: 1002, message: { id: 'msg-u1', role: 'user', content: 'compare Oslo and Rome', createdAt: 1002, parentId: null } };
const asking = {
  t: 'message',
  at: 1003,
  message: { id: 'msg-a1', role: 'assistant', content: '', createdAt: 1003, parentId: 'msg-u1', toolCalls: [{ id: 'call_0_0', name: 'compare', args: { cities: ['Oslo', 'Rome'] }, rawArguments: '{"cities":["Oslo","Rome"]}' }] },
};
const asked = {
  t: 'approval-asked',
  at: 1004,
  request: { id: 'r1', type: 'execution', sessionId: 'cut-1', callId: 'call_0_0', toolName: 'compare', groupName: 'weather', args: { cities: ['Oslo', 'Rome'] }, policy: 'ask-once' },
};

describe('tooldesk chat on an interrupted session', () => {
  it('/continue asks the call it left again; approved, it runs and the model answers', async () => {
    const home = weatherHome();
    cutSession(home, 'cut-1', [user, asking, asked]);
    server.setScript([fakeTurn.text('Compared, after the restart.')]);
    const result = await runCli(home, chatArgs('/continue', '--session', 'cut-1'), 'y\n');
    expect(result.stderr).toMatch(/Asked again: Tooldesk stopped while this call waited for your answer/);
    expect(result.stderr).toMatch(/← compare SUCCESS/);
    expect(result.stdout).toBe('Compared, after the restart.\n');
    expect(result.code).toBe(0);
    const sent = server.chatRequests().at(-1)!.body.messages;
    expect(sent.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);

    // Nothing is left to continue now.
    const again = await runCli(home, chatArgs('/continue', '--session', 'cut-1'));
    expect(again.stderr).toMatch(/No turn of this session was interrupted; there is nothing to continue/);
    expect(again.code).toBe(1);
  });

  it('a message sent to an interrupted session says so and how to continue', async () => {
    const home = weatherHome();
    cutSession(home, 'cut-2', [user]);
    server.setScript([fakeTurn.text('A new answer.')]);
    const result = await runCli(home, chatArgs('something else', '--session', 'cut-2'));
    expect(result.stderr).toContain('tooldesk chat: session cut-2 was interrupted (Tooldesk stopped while the model was answering); `tooldesk chat --session cut-2 /continue` goes on from there.');
    expect(result.stdout).toBe('A new answer.\n');
    expect(result.code).toBe(0);
    const quiet = await runCli(home, chatArgs('and now?', '--session', 'cut-2'));
    expect(quiet.stderr).not.toMatch(/interrupted/);
  });

  it('/continue without --session says which session it needs', async () => {
    const result = await runCli(weatherHome(), chatArgs('/continue'));
    expect(result.stderr).toMatch(/\/continue needs --session ID: the session whose interrupted turn to continue/);
    expect(result.code).toBe(1);
  });
});
