// Open WebUI Tools in a chat (`tooldesk chat` against the fake OpenAI server) and offered by
// `tooldesk mcp serve` to an MCP client: the same runner, valves and injected chat context.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tmpHome } from '../support/chat-harness.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer } from '../support/fake-openai-server.ts';
import { connectStdio, serveHome, textOf, type ElicitAnswer } from '../support/mcp-serve-harness.ts';
import { realPython } from '../support/real-python.ts';
import { repoRoot, runCli } from '../support/run-cli.ts';

vi.setConfig({ testTimeout: 120_000 });

const DEMO = join(repoRoot, 'test/fixtures/tools/open-webui-demo');
const python = realPython()!;

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAI({ turns: [] });
});
afterAll(async () => {
  await server.close();
});

describe('Open WebUI tools in a chat', () => {
  it('get the chat model, its messages and the session as __model__, __messages__ and __metadata__', async () => {
    const home = tmpHome();
    mkdirSync(join(home, 'tools'), { recursive: true });
    cpSync(DEMO, join(home, 'tools'), { recursive: true });
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ pythonPath: python, groupDefaults: { owui_demo: true } }));
    server.setScript([fakeTurn.toolCall('context', {}), fakeTurn.toolCall('slow_count', { upto: 2 }), fakeTurn.text('done')]);
    const chat = await runCli(home, ['chat', '--base-url', server.url, '--model', 'fake-model', '--yes', '--json', 'what do you see?']);
    expect(chat.code).toBe(0);
    const requests = server.chatRequests();
    const toolMessages = requests.at(-1)!.body.messages.filter((m: { role: string }) => m.role === 'tool') as { content: string }[];
    const context = JSON.parse(toolMessages[0]!.content);
    const sessionId = /session (\S+)/.exec(chat.stderr)?.[1] ?? JSON.parse(chat.stdout.split('\n').find((l) => l.includes('"sessionId"'))!).sessionId;
    expect(context).toMatchObject({ model: 'fake-model', id: 'owui_demo', metadata: { chat_id: sessionId, tool_ids: ['owui_demo'] } });
    expect(context.messages).toBeGreaterThanOrEqual(1);
    // Events folded into what the model gets: appended message and the citation.
    expect(toolMessages[1]!.content).toContain('counted to 2');
    expect(toolMessages[1]!.content).toContain('(counted for you)');
    expect(toolMessages[1]!.content).toContain('Sources:\n- Numbers (https://example.org/numbers)');
    // The status events streamed as the call's progress while it ran.
    // One line per status event (the chat shows them as the call's progress).
    const progress = chat.stdout.split('\n').filter((l) => l.includes('"tool.progress"')).map((l) => JSON.parse(l).update?.text ?? '');
    expect(progress.join('')).toContain('counting 1/2\ncounting 2/2 ✓\n[info] counted\n');
  });
});

describe('Open WebUI tools over mcp serve', () => {
  it('are listed with their schemas and run with the saved valves', async () => {
    const serve = serveHome(['owui_demo']);
    cpSync(DEMO, serve.root, { recursive: true });
    writeFileSync(join(serve.home, 'settings.json'), JSON.stringify({ pythonPath: python, groupDefaults: { owui_demo: true, owui_asks: true }, permissionOverrides: { greet: { executionPolicy: 'auto' }, slow_count: { executionPolicy: 'auto' }, ask_name: { executionPolicy: 'auto' } } }));
    writeFileSync(join(serve.home, 'tool-valves.json'), JSON.stringify({ owui_demo: { valves: { GREETING: 'Ahoy' } } }));
    const { client } = await connectStdio(serve);
    try {
      const { tools } = await client.listTools();
      const greet = tools.find((t) => t.name === 'greet');
      expect(greet?.inputSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
      expect(JSON.stringify(greet?.inputSchema)).not.toContain('__user__');
      const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
      expect(textOf(result)).toBe('Ahoy, Ada (from friend as admin)');
      const counted = await client.callTool({ name: 'slow_count', arguments: { upto: 1 } });
      expect(textOf(counted)).toContain('Sources:\n- Numbers');
      // This client cannot show questions (no elicitation): declined, never answered for you, and said so.
      const declined = textOf(await client.callTool({ name: 'ask_name', arguments: {} }));
      expect(declined).toMatch(/^hello None\n\nNote: ask_name asked the user "Your name", but the MCP client "tooldesk-test-host" cannot show questions \(it does not support MCP elicitation\)/);
    } finally {
      await client.close();
      serve.cleanup();
    }
  });

  it('forward __event_call__ questions to a client that can elicit, and hand its answers back', async () => {
    const serve = serveHome(['owui_asks']);
    cpSync(DEMO, serve.root, { recursive: true });
    writeFileSync(join(serve.home, 'settings.json'), JSON.stringify({ pythonPath: python, groupDefaults: { owui_asks: true }, permissionOverrides: { ask_name: { executionPolicy: 'auto' }, confirm_delete: { executionPolicy: 'auto' } } }));
    const asked: string[] = [];
    const answers: ElicitAnswer[] = [{ action: 'accept', content: { value: 'Grace' } }, { action: 'accept', content: {} }, { action: 'decline' }];
    const { client } = await connectStdio(serve, {
      elicit: (message) => {
        asked.push(message);
        return answers.shift()!;
      },
    });
    try {
      expect(textOf(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe("hello 'Grace'");
      expect(asked[0]).toBe('Your name\n\nWho are you?');
      expect(textOf(await client.callTool({ name: 'confirm_delete', arguments: { path: 'a.txt' } }))).toBe('deleted a.txt');
      expect(asked[1]).toBe('Delete?\n\nDelete a.txt?');
      expect(textOf(await client.callTool({ name: 'confirm_delete', arguments: { path: 'b.txt' } }))).toBe('kept b.txt (False)');
      expect(asked).toHaveLength(3);
    } finally {
      await client.close();
      serve.cleanup();
    }
  });
});
