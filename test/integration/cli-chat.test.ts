// `tooldesk chat`, `sessions`, `config`, `secrets`, `tools enable` as real processes against the
// fake OpenAI server, with real Python tools (resources/examples/text_stats.py, and the
// py-google-weather fixture for a tool without an auto policy).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer } from '../support/fake-openai-server.ts';
import { tmpHome } from '../support/chat-harness.ts';
import { realPython } from '../support/real-python.ts';
import { repoRoot, runCli, weatherHome } from '../support/run-cli.ts';

const root = repoRoot;
// python3 on PATH is a slow pyenv shim: resolve the real interpreter once.
const python = realPython();

const cli = runCli;

// Each case spawns the CLI a few times (tsx start-up); a loaded machine needs room.
vi.setConfig({ testTimeout: 120_000 });

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAI({ turns: [] });
});
afterAll(async () => {
  await server.close();
});


const chatArgs = (prompt: string, ...more: string[]) => ['chat', '--base-url', server.url, '--model', 'fake-model', ...more, prompt];

describe('tooldesk chat (real process, fake server)', () => {
  it('completes a tool-calling turn with a real Python tool (resources/examples/text_stats.py)', async () => {
    const home = tmpHome();
    mkdirSync(join(home, 'tools'), { recursive: true });
    copyFileSync(join(root, 'resources/examples/text_stats.py'), join(home, 'tools/text_stats.py'));
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ pythonPath: python, groupDefaults: { text_stats: true } }));
    server.setScript([fakeTurn.toolCall('word_count', { text: 'one two three, four' }), fakeTurn.text('That text has 4 words.')]);
    const result = await cli(home, chatArgs('how many words in "one two three, four"?'));
    expect(result.stderr).toContain('→ word_count');
    expect(result.stderr).toMatch(/← word_count SUCCESS/);
    expect(result.stdout).toBe('That text has 4 words.\n');
    expect(result.code).toBe(0);
    const first = server.chatRequests().at(-2)!.body;
    expect(first.messages[0].content).toMatch(/Text statistics: count words/); // the module docstring is the group's rules
    const toolMessage = server.chatRequests().at(-1)!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.content).toMatch(/"count":\s*4/);
    const id = /session (\S+)/.exec(result.stderr)![1]!;

    // The session is listed, shown and continued.
    const list = await cli(home, ['sessions', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toMatchObject([{ id, title: 'how many words in "one two three, four"?', messageCount: 4 }]);
    const shown = await cli(home, ['sessions', 'show', id]);
    expect(shown.stdout).toMatch(/\[word_count → SUCCESS\] .*"count":\s*4/);
    server.setScript([fakeTurn.text('You asked about words.')]);
    const again = await cli(home, chatArgs('what did I ask?', '--session', id));
    expect(again.stdout).toBe('You asked about words.\n');
    expect(server.chatRequests().at(-1)!.body.messages.filter((m: { role: string }) => m.role === 'user')).toHaveLength(2);
    const deleted = await cli(home, ['sessions', 'delete', id]);
    expect(deleted.code).toBe(0);
    expect(readdirSync(join(home, 'sessions'))).toEqual([]);
  });

  it('asks approvals on the terminal; a rejection reason reaches the model', async () => {
    const home = weatherHome();
    server.setScript([fakeTurn.toolCall('compare', { cities: ['Oslo', 'Rome'] }), fakeTurn.text('ok, I will not compare')]);
    const result = await cli(home, chatArgs('compare Oslo and Rome'), 'n: not while I am travelling\n');
    expect(result.stderr).toMatch(/\? Run compare \{"cities":\["Oslo","Rome"\]\}\?/);
    expect(result.code).toBe(0);
    const toolMessage = server.chatRequests().at(-1)!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.content).toMatch(/not while I am travelling/);

    server.setScript([fakeTurn.toolCall('compare', { cities: ['Oslo', 'Rome'] }), fakeTurn.text('compared')]);
    const approved = await cli(home, chatArgs('compare again', '--yes'));
    expect(approved.stderr).toMatch(/← compare SUCCESS/);
    const last = server.chatRequests().at(-1)!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(last.content).toBe('Oslo vs Rome by temperature');
  });

  it('--json prints the session events as JSON lines', async () => {
    const home = tmpHome();
    server.setScript([fakeTurn.reasoning('hmm', 'Hi!')]);
    const result = await cli(home, chatArgs('hello', '--json'));
    expect(result.code).toBe(0);
    const events = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; state?: string });
    expect(events[0]).toMatchObject({ type: 'session.turn', state: 'started' });
    expect(events.at(-1)).toMatchObject({ type: 'session.turn', state: 'finished', stopReason: 'stop' });
    expect(events.map((e) => e.type)).toContain('session.delta');
  });

  it('exits non-zero with the provider message on an error', async () => {
    const home = tmpHome();
    server.setScript([fakeTurn.error(404, 'no such model')]);
    const result = await cli(home, chatArgs('hello'));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/answered HTTP 404 for model "fake-model": no such model\. Check the base URL/);
  });

  it('runs /tool {json} with no provider configured; plain text says what is missing', async () => {
    const home = weatherHome();
    const ran = await cli(home, ['chat', '/get_forecast {"city": "Lima", "days": 1}']);
    expect(ran).toMatchObject({ code: 0, stdout: 'Lima: [20]\n' });
    const plain = await cli(home, ['chat', 'hello']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/No model provider is configured/);
  });
});

describe('tooldesk chat without a keyring', () => {
  it('says so, takes the API key on stdin for this run only, and writes it nowhere', async () => {
    const keyed = await startFakeOpenAI({ turns: [fakeTurn.text('authorised answer')], apiKey: 'sk-only-this-run' });
    try {
      const home = tmpHome();
      const provider = { id: 'keyed', name: 'Keyed', kind: 'openai-compatible', baseURL: keyed.url, model: 'fake-model', apiKeySecret: 'KEYED_API_KEY' };
      writeFileSync(join(home, 'settings.json'), JSON.stringify({ providers: [provider], activeProviderId: 'keyed' }));
      // A session bus that does not exist: no Secret Service, even where CI runs one.
      const noKeyring = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/tooldesk-test-bus' };
      const result = await cli(home, ['chat', 'hello'], 'sk-only-this-run\n', noKeyring);
      if (process.platform !== 'linux') {
        console.log(`keyring-less chat: ${process.platform} has a system keychain; checked only that the turn ran`);
        expect(result.code === 0 || /no API key|needs its API key/.test(result.stderr)).toBe(true);
        return;
      }
      expect(result.stderr).toMatch(/No system keyring is available/);
      expect(result.stderr).toMatch(/Type the API key for KEYED_API_KEY to use it for this run only \(it is not saved/);
      expect(result).toMatchObject({ code: 0, stdout: 'authorised answer\n' });
      expect(keyed.chatRequests()[0]!.headers.authorization).toBe('Bearer sk-only-this-run');
      for (const file of readdirSync(home, { recursive: true, withFileTypes: true }).filter((d) => d.isFile())) {
        expect(readFileSync(join(file.parentPath, file.name), 'utf8')).not.toContain('sk-only-this-run');
      }
      // No key given: nothing is sent.
      const none = await cli(home, ['chat', 'hello again'], '', noKeyring);
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/no API key for KEYED_API_KEY; nothing was sent/);
      expect(keyed.chatRequests()).toHaveLength(1);
    } finally {
      await keyed.close();
    }
  });
});

describe('tooldesk config / secrets / tools enable', () => {
  it('config get/set with dotted keys and JSON values; invalid values change nothing', async () => {
    const home = tmpHome();
    expect(await cli(home, ['config', 'set', 'limits.maxSteps', '40'])).toMatchObject({ code: 0, stdout: 'limits.maxSteps = 40\n' });
    expect(await cli(home, ['config', 'set', 'systemPrompt', 'Be brief.'])).toMatchObject({ code: 0 });
    expect((await cli(home, ['config', 'get', 'limits.maxSteps'])).stdout).toBe('40\n');
    const bad = await cli(home, ['config', 'set', 'sandbox.mode', 'sometimes']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/sandbox\.mode must be equal to one of the allowed values/);
    const settings = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'));
    expect(settings).toMatchObject({ systemPrompt: 'Be brief.', limits: { maxSteps: 40 }, sandbox: { mode: 'auto' } });
    expect((await cli(home, ['config', 'get', 'nope'])).code).toBe(1);
    const typo = await cli(home, ['config', 'set', 'limit.maxSteps', '3']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/no setting "limit"; the settings are: providers, .*limits/);
  });

  it('tools enable/disable a group or a single tool; unknown names are refused', async () => {
    const home = weatherHome();
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ pythonPath: python }));
    expect(await cli(home, ['tools', 'enable', 'weather'])).toMatchObject({ code: 0, stdout: 'group weather enabled\n' });
    expect((await cli(home, ['tools', 'disable', 'compare'])).stdout).toBe('tool compare disabled\n');
    expect((await cli(home, ['tools', 'enable', 'nothing-here'])).code).toBe(1);
    const settings = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'));
    expect(settings).toMatchObject({ groupDefaults: { weather: true }, toolDefaults: { compare: false } });
  });

  it('secrets set reads stdin, never argv; works with a keyring, explains itself without', async () => {
    const home = tmpHome();
    const refused = await cli(home, ['secrets', 'set', 'TD_TEST_KEY', 'value-on-argv']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/read from stdin, never from arguments/);
    const set = await cli(home, ['secrets', 'set', `TD_CLI_TEST_${process.pid}`], 'sk-secret\n');
    if (set.code === 0) {
      console.log('secrets CLI: a keyring is available; tested set/has/list/delete');
      expect((await cli(home, ['secrets', 'has', `TD_CLI_TEST_${process.pid}`])).code).toBe(0);
      expect((await cli(home, ['secrets', 'list'])).stdout).toContain(`TD_CLI_TEST_${process.pid}`);
      expect((await cli(home, ['secrets', 'delete', `TD_CLI_TEST_${process.pid}`])).code).toBe(0);
    } else {
      console.log('secrets CLI: no keyring here; tested the explanation');
      expect(set.code).toBe(1);
      expect(set.stderr).toMatch(/No system keyring is available \([^()]*(\([^()]*\))?[^()]*\), so nothing can be stored.*`tooldesk chat` asks for a provider's key/);
    }
    for (const file of readdirSync(home, { recursive: true, withFileTypes: true }).filter((d) => d.isFile())) {
      expect(readFileSync(join(file.parentPath, file.name), 'utf8')).not.toContain('sk-secret');
    }
  });
});
