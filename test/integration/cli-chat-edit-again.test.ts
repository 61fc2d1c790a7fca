// `tooldesk chat` as a real process against the fake OpenAI server: "e" at the approval prompt
// edits the call's arguments (one line of JSON through a pipe), checked against the tool's schema
// with a retry, and the model is told as in the app; `/calls` and `/again [N]` on a session run a
// call again with approval as usual, recorded so the model sees the new result on its next turn.
import { readdirSync, readFileSync } from 'node:fs';
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


const chat = (home: string, text: string, input = '', ...more: string[]) => runCli(home, ['chat', '--base-url', server.url, '--model', 'fake-model', ...more, text], input, { EDITOR: '', VISUAL: '' });
const toolMessages = () => (server.chatRequests().at(-1)!.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool').map((m) => m.content);
const sessionOf = (stderr: string) => /session (\S+)/.exec(stderr)![1]!;

describe('tooldesk chat: edit arguments at the prompt, /calls and /again', () => {
  it('"e" takes new arguments as one line of JSON, explains invalid ones, runs the edited call and tells the model', async () => {
    const home = weatherHome();
    server.setScript([fakeTurn.toolCall('compare', { cities: ['Oslo', 'Rome'] }), fakeTurn.text('compared')]);
    const input = ['e', '{"cities": "Oslo"', '{"cities": 3}', '{"cities": ["Oslo", "Lima"]}', 'y'].join('\n') + '\n';
    const result = await chat(home, 'compare Oslo and Rome', input);
    expect(result.stderr).toContain('[e]dit arguments');
    expect(result.stderr).toMatch(/That is not valid JSON \(.+\)\. Try again\./);
    expect(result.stderr).toMatch(/ {2}Not valid for compare:\n {4}Invalid arguments for compare:\n {4}- `cities`: expected array, got integer 3\n[\s\S]*\n {2}Try again\./);
    expect(result.stderr).toContain('? Run compare {"cities":["Oslo","Lima"]}? (arguments edited by you)');
    expect(result.stderr).toMatch(/← compare SUCCESS .*Oslo vs Lima by temperature/);
    expect(result).toMatchObject({ code: 0, stdout: 'compared\n' });
    expect(toolMessages()).toEqual(['Note: the user changed the arguments before approving; the call ran with {"cities":["Oslo","Lima"]}.\n\nOslo vs Lima by temperature']);
    // The session keeps both: the model's arguments in the message, the user's in the result.
    const file = readdirSync(join(home, 'sessions')).find((f) => f.endsWith('.jsonl'))!;
    const records = readFileSync(join(home, 'sessions', file), 'utf8');
    expect(records).toContain('"editedArgs":{"cities":["Oslo","Lima"]}');
    expect(records).toMatch(/"args":\{"cities":\["Oslo","Rome"\]\}/);
  });

  it('/calls lists the session\'s calls; /again runs the last one again with approval; /again N a numbered one; the model sees the new result', async () => {
    const home = weatherHome();
    server.setScript([fakeTurn.toolCall('compare', { cities: ['Oslo', 'Rome'] }), fakeTurn.text('compared')]);
    // Asked before every run, so a run again asks too.
    expect((await runCli(home, ['tools', 'policy', 'compare', 'ask-always'])).code).toBe(0);
    const first = await chat(home, 'compare Oslo and Rome', 'y\n');
    expect(first.code).toBe(0);
    const id = sessionOf(first.stderr);

    const listed = await chat(home, '/calls', '', '--session', id);
    expect(listed).toMatchObject({ code: 0, stdout: '1  compare  SUCCESS  {"cities":["Oslo","Rome"]}\n' });

    const requests = server.chatRequests().length;
    // Approval as usual: "e" edits the arguments of the run again too.
    const again = await chat(home, '/again', 'e\n{"cities": ["Oslo", "Paris"]}\ny\n', '--session', id);
    expect(again.stderr).toMatch(/\? Run compare \{"cities":\["Oslo","Rome"\]\}\?/);
    // stdout is the text the model will get, as for a hand-run /tool.
    expect(again).toMatchObject({ code: 0, stdout: 'Note: the user changed the arguments before approving; the call ran with {"cities":["Oslo","Paris"]}.\n\nOslo vs Paris by temperature\n' });
    expect(server.chatRequests().length).toBe(requests);

    const rejected = await chat(home, '/again 1', 'n: not now\n', '--session', id);
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toMatch(/← compare EXECUTION_REJECTED/);

    const all = await chat(home, '/calls', '', '--session', id);
    expect(all.stdout.split('\n').filter(Boolean)).toEqual([
      '1  compare  SUCCESS  {"cities":["Oslo","Rome"]}',
      '2  compare  SUCCESS  {"cities":["Oslo","Paris"]}  (arguments edited)  (ran #1 again)',
      '3  compare  EXECUTION_REJECTED  {"cities":["Oslo","Rome"]}  (ran #1 again)',
    ]);
    const json = await chat(home, '/calls', '', '--session', id, '--json');
    expect(JSON.parse(json.stdout.split('\n')[1]!)).toMatchObject({ n: 2, toolName: 'compare', args: { cities: ['Oslo', 'Paris'] }, status: 'SUCCESS' });

    server.setScript([fakeTurn.text('I see both')]);
    const next = await chat(home, 'what did they say?', '', '--session', id);
    expect(next).toMatchObject({ code: 0, stdout: 'I see both\n' });
    const seen = toolMessages();
    expect(seen[0]).toBe('Oslo vs Rome by temperature');
    expect(seen[1]).toContain('Oslo vs Paris by temperature');
    expect(seen[2]).toMatch(/did not allow running compare\. Their reason: "not now"\./);
  });

  it('refuses /again without a session, a number that /calls does not list, and words after /calls', async () => {
    const home = weatherHome();
    const noSession = await chat(home, '/again');
    expect(noSession).toMatchObject({ code: 1 });
    expect(noSession.stderr).toMatch(/\/again needs --session ID: the session whose tool calls to run again/);
    server.setScript([fakeTurn.text('hi')]);
    const id = sessionOf((await chat(home, 'hello')).stderr);
    const none = await chat(home, '/again', '', '--session', id);
    expect(none.stderr).toMatch(new RegExp(`session ${id} has no tool calls to run again`));
    expect(none.code).toBe(1);
    const bad = await chat(home, '/again two', '', '--session', id);
    expect(bad.stderr).toMatch(/\/again takes the number of a call that \/calls lists, e\.g\. \/again 2 \(got "two"\)/);
    expect((await chat(home, '/calls everything', '', '--session', id)).stderr).toMatch(/\/calls takes no arguments/);
    server.setScript([fakeTurn.toolCall('compare', { cities: ['A', 'B'] }), fakeTurn.text('ok')]);
    await chat(home, 'compare', 'y\n', '--session', id);
    const far = await chat(home, '/again 7', '', '--session', id);
    expect(far.stderr).toMatch(/no call #7: \/calls lists 1/);
  });
});
