// An MCP tool's image in the chat (issue 12): the real "everything" server's get-tiny-image, called
// by the fake model. A model known to take images gets the picture as a user message naming the
// call (chat completions carry only text in tool messages); any other model gets the text that
// describes it. The session keeps the image as a file: a reopened session sends it again, and the
// chat reads it back (readToolImage) without it ever being written into the session file.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../electron/runtime/create-runtime.ts';
import { SecretStore, sessionBackend } from '../../../electron/runtime/store/secret-store.ts';
import type { ApiEvent, ApiHandlers } from '../../../shared/api.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fake-openai-server.ts';
import { EVERYTHING } from '../../support/mcp-servers.ts';

let runtime: Runtime | undefined;
let fake: FakeOpenAIServer | undefined;
afterEach(async () => {
  await runtime?.close();
  await fake?.close();
  runtime = undefined;
});

const secrets = new SecretStore({ keyring: sessionBackend() });

async function start(home: string, roots: string): Promise<{ h: ApiHandlers; events: ApiEvent[] }> {
  runtime = await createRuntime({ home, secrets, tools: { roots: [roots] } });
  const host = await runtime.host({ browserMode: true });
  const events: ApiEvent[] = [];
  host.onEvent((e) => events.push(e));
  return { h: host.handlers, events };
}

async function chatWithImageTool(model: string, turns: FakeTurn[]) {
  fake = await startFakeOpenAI({ turns, models: [model] });
  const home = mkdtempSync('/var/tmp/td-mcp-img-');
  const roots = mkdtempSync('/var/tmp/td-mcp-img-roots-');
  const { h, events } = await start(home, roots);
  await h.setSettings({
    patch: {
      providers: [{ id: 'fake', name: 'Fake', kind: 'openai-compatible', baseURL: fake.url, model }],
      activeProviderId: 'fake',
      permissionOverrides: { 'ev__get-tiny-image': { executionPolicy: 'auto' } },
    },
  });
  await h.addMcpServer({ name: 'ev', command: process.execPath, args: [EVERYTHING, 'stdio'] });
  await h.setGroupEnabled({ group: 'ev', enabled: true });
  await expect.poll(async () => (await h.listTools({})).groups.find((g) => g.name === 'ev')?.tools.some((t) => t.name === 'ev__get-tiny-image'), { timeout: 30_000 }).toBe(true);
  const session = await h.createSession({});
  const finished = (turnId: string) => events.find((e) => e.type === 'session.turn' && e.state === 'finished' && e.turnId === turnId);
  const send = async (text: string) => {
    const { turnId } = await h.sendMessage({ sessionId: session.id, text });
    await expect.poll(() => finished(turnId), { timeout: 30_000 }).toBeTruthy();
    return finished(turnId) as Extract<ApiEvent, { type: 'session.turn'; state: 'finished' }>;
  };
  return { h, events, session, send, home, roots };
}

type Part = { type: string; text?: string; image_url?: { url: string } };
const imageParts = (body: { messages: Array<{ role: string; content: unknown }> }) =>
  body.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Part[]).map((p) => ({ role: m.role, part: p })) : [])).filter((x) => x.part.type === 'image_url');

describe('MCP image results reach vision models', () => {
  it('a vision model gets the image after the tool message, labelled with its call; a reopened session sends it again', async () => {
    const { h, send, session, home, roots, events } = await chatWithImageTool('gpt-4o-mini', [fakeTurn.toolCall('ev__get-tiny-image', {}), fakeTurn.text('A tiny picture.'), fakeTurn.text('Still see it.')]);
    expect((await send('show me a picture')).stopReason).toBe('stop');

    const second = fake!.chatRequests()[1]!.body;
    const roles = second.messages.map((m: { role: string }) => m.role);
    expect(roles.slice(-3)).toEqual(['assistant', 'tool', 'user']);
    const tool = second.messages.at(-2);
    expect(tool.content).toMatch(/\[image image\/png, \d+ KB\]/);
    const images = imageParts(second);
    expect(images).toHaveLength(1);
    expect(images[0]!.role).toBe('user');
    expect(images[0]!.part.image_url!.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    const label = (second.messages.at(-1).content as Part[])[0]!;
    expect(label.text).toContain(`the output of the tool call ${tool.tool_call_id} (ev__get-tiny-image)`);

    // The chat shows it: the finished call names the session's copy, which readToolImage serves.
    const done = events.find((e): e is Extract<ApiEvent, { type: 'tool.finished' }> => e.type === 'tool.finished')!;
    const kept = done.result.images![0]!;
    expect(kept).toMatchObject({ mimeType: 'image/png', stored: expect.stringMatching(/\.png$/) });
    expect(kept.data).toBeUndefined();
    const read = await h.readToolImage({ sessionId: session.id, stored: kept.stored! });
    expect(images[0]!.part.image_url!.url).toBe(`data:image/png;base64,${read.data}`);
    await expect(h.readToolImage({ sessionId: session.id, stored: '../../settings.json' })).rejects.toThrow(/no tool image/);
    // The session file holds the file name, not the bytes.
    const file = readdirSync(join(home, 'sessions')).find((f) => f.endsWith('.jsonl'))!;
    expect(readFileSync(join(home, 'sessions', file), 'utf8')).not.toContain(read.data.slice(0, 40));

    // Reopened in a new process: the next turn still sends the image.
    await runtime!.close();
    const again = await start(home, roots);
    const { turnId } = await again.h.sendMessage({ sessionId: session.id, text: 'and now?' });
    await expect.poll(() => again.events.some((e) => e.type === 'session.turn' && e.state === 'finished' && e.turnId === turnId), { timeout: 30_000 }).toBe(true);
    const third = fake!.chatRequests()[2]!.body;
    expect(imageParts(third).map((x) => x.part.image_url!.url)).toEqual([`data:image/png;base64,${read.data}`]);
  });

  it('a model not known to take images gets only the text describing it', async () => {
    const { send } = await chatWithImageTool('fake-model', [fakeTurn.toolCall('ev__get-tiny-image', {}), fakeTurn.text('ok')]);
    expect((await send('show me a picture')).stopReason).toBe('stop');
    const second = fake!.chatRequests()[1]!.body;
    expect(imageParts(second)).toEqual([]);
    expect(second.messages.at(-1).role).toBe('tool');
    expect(second.messages.at(-1).content).toMatch(/\[image image\/png, \d+ KB\]/);
  });
});
