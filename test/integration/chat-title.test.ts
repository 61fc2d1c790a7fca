// A new chat's title from its first exchange: the model's when it answers, else the first words;
// a title the user set is never replaced. Real SessionManager against the fake server.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionManager } from '../../electron/runtime/chat/persistence/session-manager.ts';
import { cleanModelTitle, TITLE_INSTRUCTION } from '../../electron/runtime/chat/titles/title-from-model.ts';
import { openSettingsStore } from '../../electron/runtime/store/settings-store.ts';
import { readSessionInfo } from '../../electron/runtime/chat/persistence/session-file.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer } from '../support/fake-openai-server.ts';
import { demoGroup, fakeProviderSettings, staticTools, tmpHome } from '../support/chat-harness.ts';

let server: FakeOpenAIServer | undefined;
const managers: SessionManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) m.closeAll();
  await server?.close();
  server = undefined;
});

async function setup(title?: string) {
  server = await startFakeOpenAI({ turns: [fakeTurn.text('Paris is the capital of France.'), fakeTurn.text('Second answer.')], ...(title !== undefined ? { title } : {}) });
  const home = tmpHome();
  const settings = openSettingsStore(home);
  fakeProviderSettings(settings, server.url);
  const manager = new SessionManager({ home, settings, tools: staticTools([demoGroup()]) });
  managers.push(manager);
  return { home, manager, server };
}

const LONG = `What is the capital of France? ${'Please explain at length. '.repeat(200)}`;

describe('a chat titled from its first exchange', () => {
  it('takes the model-made title after the first answer, with a bounded request, and keeps it on disk', async () => {
    const { manager, server } = await setup('"Capital of France."');
    const session = manager.create();
    const outcome = await (session.send(LONG) as { done: Promise<{ stopReason: string }> }).done;
    expect(outcome.stopReason).toBe('stop');
    // The turn ends with the first words; the model's title follows.
    await vi.waitFor(() => expect(session.info.title).toBe('Capital of France'), { timeout: 5000 });
    expect(server.titleRequests).toHaveLength(1);
    const body = server.titleRequests[0]!.body;
    expect(body.messages[0]).toEqual({ role: 'system', content: TITLE_INSTRUCTION });
    expect(body.messages[1].content.length).toBeLessThan(3200);
    expect(body.messages[1].content).toContain('Paris is the capital of France.');
    expect(body.max_tokens ?? body.max_completion_tokens).toBe(40);
    // The title request took no scripted turn and is not among the chat's requests.
    expect(server.chatRequests()).toHaveLength(1);
    expect(readSessionInfo(manager.dir, session.id)?.title).toBe('Capital of France');
    // Later exchanges do not ask again.
    await (session.send('and Spain?') as { done: Promise<unknown> }).done;
    await new Promise((r) => setTimeout(r, 200));
    expect(server.titleRequests).toHaveLength(1);
  });

  it('keeps the first words when the title request fails', async () => {
    const { manager, server } = await setup();
    const session = manager.create();
    await (session.send('plan the trip to Lisbon') as { done: Promise<unknown> }).done;
    await vi.waitFor(() => expect(server.titleRequests).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 200));
    expect(session.info.title).toBe('plan the trip to Lisbon');
  });

  it('never replaces a title the user set, before or after the first answer', async () => {
    const { manager, server } = await setup('Model title');
    const named = manager.create({ title: 'Mine from the start' });
    await (named.send('hello') as { done: Promise<unknown> }).done;
    const renamed = manager.create();
    await (renamed.send('hello again') as { done: Promise<unknown> }).done;
    // Renamed before the title came back (the request is still on its way).
    manager.rename(renamed.id, 'Renamed by me');
    await new Promise((r) => setTimeout(r, 500));
    expect(named.info.title).toBe('Mine from the start');
    expect(renamed.info.title).toBe('Renamed by me');
    expect(server.titleRequests.length).toBeLessThanOrEqual(1);
  });
});

describe('cleanModelTitle', () => {
  it('takes the first line without quotes, labels, markdown or a final period', () => {
    expect(cleanModelTitle('Title: "Trip to Lisbon".')).toBe('Trip to Lisbon');
    expect(cleanModelTitle('\n**Budget review**\nextra line')).toBe('Budget review');
    expect(cleanModelTitle('   ')).toBeUndefined();
    expect(cleanModelTitle('"" ')).toBeUndefined();
    expect(cleanModelTitle('x'.repeat(200))!.length).toBeLessThanOrEqual(61);
  });
});
