// MCP prompts and resources in the chat (issue 12), against the real "everything" server: its
// prompts are `/ev:prompt` commands whose messages become the user's turn (required arguments
// checked first, an embedded resource attached), and its resources attach to a message like a
// text file (chip, whole text in a variable).
import { mkdtempSync } from 'node:fs';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../electron/runtime/create-runtime.ts';
import { SecretStore, sessionBackend } from '../../../electron/runtime/store/secret-store.ts';
import type { ApiEvent, ApiHandlers } from '../../../shared/api.ts';
import type { UserMessage } from '../../../shared/chat.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer } from '../../support/fake-openai-server.ts';
import { EVERYTHING } from '../../support/mcp-servers.ts';

let runtime: Runtime;
let fake: FakeOpenAIServer;
let h: ApiHandlers;
const events: ApiEvent[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI({ script: () => fakeTurn.text('ok') });
  runtime = await createRuntime({ home: mkdtempSync('/var/tmp/td-mcp-prompts-'), secrets: new SecretStore({ keyring: sessionBackend() }), tools: { roots: [mkdtempSync('/var/tmp/td-mcp-prompts-roots-')] } });
  const host = await runtime.host({ browserMode: true });
  host.onEvent((e) => events.push(e));
  h = host.handlers;
  await h.setSettings({ patch: { providers: [{ id: 'fake', name: 'Fake', kind: 'openai-compatible', baseURL: fake.url, model: 'fake-model' }], activeProviderId: 'fake' } });
  await h.addMcpServer({ name: 'ev', command: process.execPath, args: [EVERYTHING, 'stdio'] });
  await h.addMcpServer({ name: 'off', command: process.execPath, args: [EVERYTHING, 'stdio'] });
  await h.setGroupEnabled({ group: 'ev', enabled: true });
}, 60_000);
afterAll(async () => {
  await runtime?.close();
  await fake?.close();
});

let before = 0;
afterEach(() => {
  before = fake.chatRequests().length;
});

async function send(text: string, attachments?: Parameters<ApiHandlers['sendMessage']>[0]['attachments']) {
  const session = await h.createSession({});
  const { turnId } = await h.sendMessage({ sessionId: session.id, text, ...(attachments ? { attachments } : {}) });
  await expect.poll(() => events.some((e) => e.type === 'session.turn' && e.state === 'finished' && e.turnId === turnId), { timeout: 30_000 }).toBe(true);
  const user = (await h.openSession({ sessionId: session.id })).messages.find((m): m is UserMessage => m.role === 'user')!;
  const request = fake.chatRequests().at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
  return { session, user, request, lastUser: JSON.stringify(request.messages.filter((m) => m.role === 'user').at(-1)) };
}

describe('MCP prompts as /server:prompt', () => {
  it('lists the prompts of switched-on servers with their arguments', async () => {
    const listed = await h.listMcpPrompts({});
    expect(listed.problems).toEqual([]);
    const args = listed.items.find((p) => p.command === 'ev:args-prompt');
    expect(args).toMatchObject({ server: 'ev', name: 'args-prompt', arguments: [{ name: 'city', required: true }, { name: 'state', required: false }] });
    // The switched-off server's prompts are not offered.
    expect(listed.items.some((p) => p.server === 'off')).toBe(false);
  });

  it('runs prompts/get with name=value arguments (quoted values too) and sends its text as the user turn', async () => {
    const { user, lastUser } = await send('/ev:args-prompt city=Paris state="Ile de France"');
    expect(user.content).toBe("What's weather in Paris, Ile de France?");
    expect(user.prompt).toBe('/ev:args-prompt city=Paris state="Ile de France"');
    expect(lastUser).toContain("What's weather in Paris, Ile de France?");
    expect(lastUser).not.toContain('/ev:args-prompt');
  });

  it('an embedded resource in the prompt becomes an attachment with its text in a variable', async () => {
    const { user, lastUser } = await send('/ev:resource-prompt resourceType=Text resourceId=3');
    expect(user.content).toContain('Please analyze the following resource');
    expect(user.attachments).toHaveLength(1);
    expect(user.attachments![0]).toMatchObject({ kind: 'text', variable: expect.any(String) });
    expect(lastUser).toContain('Resource 3: This is a plaintext resource');
  });

  it('refuses missing required arguments, unknown arguments and unknown prompts with what to type', async () => {
    const session = await h.createSession({});
    await expect(h.sendMessage({ sessionId: session.id, text: '/ev:args-prompt state=CA' })).rejects.toThrow(/\/ev:args-prompt needs city \(Name of the city\)\. Usage: \/ev:args-prompt city=… state=\[…\]/);
    await expect(h.sendMessage({ sessionId: session.id, text: '/ev:args-prompt city=X town=Y' })).rejects.toThrow(/has no argument town \(its arguments: city, state\)/);
    await expect(h.sendMessage({ sessionId: session.id, text: '/ev:nope' })).rejects.toThrow(/has no prompt "nope" \(its prompts: .*\/ev:simple-prompt/);
    await expect(h.sendMessage({ sessionId: session.id, text: '/ev:args-prompt city="Paris' })).rejects.toThrow(/no closing "/);
    await expect(h.sendMessage({ sessionId: session.id, text: '/off:simple-prompt' })).rejects.toThrow(/"off" is switched off/);
    expect(fake.chatRequests().length).toBe(before);
    expect((await h.openSession({ sessionId: session.id })).messages).toEqual([]);
  });

  it('a name that is no configured server is not a prompt: it is read as /tool, as before', async () => {
    const session = await h.createSession({});
    const { turnId } = await h.sendMessage({ sessionId: session.id, text: '/usr:local {}' });
    await expect.poll(() => events.find((e) => e.type === 'session.turn' && e.state === 'finished' && e.turnId === turnId), { timeout: 10_000 }).toMatchObject({ error: { name: 'UnknownTool' } });
    expect(fake.chatRequests().length).toBe(before);
  });
});

describe('MCP resources attached from the composer', () => {
  it('lists resources of switched-on servers and attaches one like a text file', async () => {
    const listed = await h.listMcpResources({});
    const doc = listed.items.find((r) => r.uri.endsWith('/architecture.md'));
    expect(doc).toMatchObject({ server: 'ev', mimeType: 'text/markdown' });
    const upload = await h.readMcpResource({ server: 'ev', uri: doc!.uri });
    expect(upload).toMatchObject({ name: 'architecture.md', mediaType: 'text/markdown' });
    const text = Buffer.from(upload.data, 'base64').toString('utf8');
    const { user, session, lastUser } = await send('summarise this', [upload]);
    expect(user.attachments![0]).toMatchObject({ name: 'architecture.md', kind: 'text', chars: text.length });
    expect(lastUser).toContain(text.slice(0, 200).replace(/\n/g, '\\n').replace(/"/g, '\\"'));
    const variable = await h.readVariable({ sessionId: session.id, name: user.attachments![0]!.variable! });
    expect(variable.value).toBe(text);
  });

  it('a switched-off or unknown server, or an unknown resource, is a clear error', async () => {
    await expect(h.readMcpResource({ server: 'off', uri: 'demo://x' })).rejects.toThrow(/"off" is switched off/);
    await expect(h.readMcpResource({ server: 'nobody', uri: 'demo://x' })).rejects.toThrow(/no MCP server named "nobody"/);
    await expect(h.readMcpResource({ server: 'ev', uri: 'demo://resource/static/document/none.md' })).rejects.toThrow(/MCP server "ev" could not read demo:\/\/resource\/static\/document\/none\.md/);
  });
});
