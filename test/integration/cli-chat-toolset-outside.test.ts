// Issue 36 §7: `tooldesk chat --toolset X` refuses a call of a tool the set leaves out as outside
// the set — not as "its group is disabled", which sends the user to a switch that is already on.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer } from '../support/fake-openai-server.ts';
import { tmpHome } from '../support/chat-harness.ts';
import { realPython } from '../support/real-python.ts';
import { repoRoot, runCli } from '../support/run-cli.ts';

vi.setConfig({ testTimeout: 120_000 });

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAI({ turns: [] });
});
afterAll(async () => {
  await server.close();
});

describe('chat --toolset and a tool outside the set', () => {
  it('says the tool is outside the set, to the user and to the model', async () => {
    const home = tmpHome();
    mkdirSync(join(home, 'tools'), { recursive: true });
    copyFileSync(join(repoRoot, 'resources/examples/text_stats.py'), join(home, 'tools/text_stats.py'));
    // The group is switched on; the set names only ReadVar.
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ pythonPath: realPython(), groupDefaults: { text_stats: true }, toolSets: [{ name: 'reading', tools: ['ReadVar'] }] }));
    server.setScript([fakeTurn.toolCall('word_count', { text: 'one two' }), fakeTurn.text('I could not count.')]);
    const result = await runCli(home, ['chat', '--base-url', server.url, '--model', 'fake-model', '--toolset', 'reading', 'count "one two"']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('← word_count ERROR');
    expect(result.stderr).toContain('it is outside the tool set "reading" this conversation uses');
    expect(result.stderr).not.toMatch(/group .* (is )?(disabled|switched off)/);
    const toolMessage = server.chatRequests().at(-1)!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.content).toContain('outside the tool set "reading"');
    expect(toolMessage.content).not.toContain('is disabled');

    // Without the set the same call runs: the refusal came from the set alone.
    server.setScript([fakeTurn.toolCall('word_count', { text: 'one two' }), fakeTurn.text('Two words.')]);
    const plain = await runCli(home, ['chat', '--base-url', server.url, '--model', 'fake-model', 'count "one two"']);
    expect(plain.stderr).toMatch(/← word_count SUCCESS/);
  });
});
