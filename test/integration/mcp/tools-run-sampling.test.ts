// Issue #36 item 16: server-everything's sampling tool (`trigger-sampling-request`, listed only to
// a client that offers sampling) was listed by `tools list` but `tools run` could not run it:
// `tools run` passed only its terminal elicitation, so the server either did not list the tool
// ("no tool") or the call failed with "asked.sample is not a function". Now `tools run` offers
// sampling: the server's messages are shown, and the active provider's model answers them after
// a yes (`--yes` says yes); without a provider, or on a no, the server gets a refusal that says why.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer } from '../../support/fake-openai-server.ts';
import { EVERYTHING } from '../../support/mcp-servers.ts';
import { runCli } from '../../support/run-cli.ts';
import { tempHomes } from '../../support/temp-homes.ts';

const homes = tempHomes();
let model: FakeOpenAIServer;
beforeAll(async () => {
  model = await startFakeOpenAI({ turns: [] });
});
afterAll(async () => {
  await model?.close();
  homes.removeAll();
});

const RUN = ['tools', 'run', 'ev__trigger-sampling-request', '--args', '{"prompt": "name a colour", "maxTokens": 20}'];

/** server-everything switched on; with `provider`, the fake model is the active provider. */
function home(provider: boolean): string {
  const dir = homes.make();
  mkdirSync(join(dir, 'tools'), { recursive: true });
  const ev = { command: process.execPath, args: [EVERYTHING, 'stdio'], sandbox: 'off' };
  const providers = provider ? { providers: [{ id: 'fake', name: 'Fake', kind: 'openai-compatible', baseURL: model.url, model: 'fake-model' }], activeProviderId: 'fake' } : {};
  writeFileSync(join(dir, 'settings.json'), JSON.stringify({ mcpServers: { ev }, groupDefaults: { ev: true }, ...providers }));
  return dir;
}

describe('tools run answers an MCP server’s sampling request', () => {
  it('with --yes, the active provider answers the messages the server sent, and the result carries its text', async () => {
    model.setScript([fakeTurn.text('teal, since you ask')]);
    const result = await runCli(home(true), [...RUN, '--yes']);
    expect(result.stderr).toContain('MCP server "ev" asks the model to answer (sampling, at most 20 tokens)');
    expect(result.stderr).toContain('user: Resource trigger-sampling-request context: name a colour');
    expect(result.stderr).toContain('answered by Fake (fake-model) (--yes)');
    expect(result.stdout).toContain('teal, since you ask');
    expect(result.code).toBe(0);
    const asked = model.chatRequests().at(-1)!.body as { messages: Array<{ role: string; content: string }>; tools?: unknown };
    expect(asked.messages).toEqual([
      { role: 'system', content: 'You are a helpful test server.' },
      { role: 'user', content: 'Resource trigger-sampling-request context: name a colour' },
    ]);
    expect(asked.tools).toBeUndefined();
  }, 60_000);

  it('asks on the terminal: a no is a refusal the result names, and the model is not asked', async () => {
    const before = model.chatRequests().length;
    // Approve the run itself, then say no to the sampling.
    const result = await runCli(home(true), RUN, 'y\nn\n');
    expect(result.stderr).toContain('Let Fake (fake-model) answer it? [y/N]');
    expect(result.stderr).toContain('the user did not allow this sampling request');
    expect(result.code).toBe(1);
    expect(model.chatRequests().length).toBe(before);
  }, 60_000);

  it('without a provider, the tool runs and says clearly that there is no model to answer with', async () => {
    const result = await runCli(home(false), [...RUN, '--yes']);
    expect(result.stderr).not.toMatch(/no tool|is not a function/);
    expect(result.stderr).toContain('Tooldesk has no model to answer this sampling request: No model provider is configured');
    expect(result.code).toBe(1);
  }, 60_000);
});
