// Edit, Regenerate, branch switching, Delete, the chat's own model and settings, attachments,
// search by message text and export — through a real SessionManager and the fake OpenAI server.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../shared/chat.ts';
import { SessionManager } from '../../electron/runtime/chat/persistence/session-manager.ts';
import { readSessionFile } from '../../electron/runtime/chat/persistence/session-file.ts';
import { exportSession } from '../../electron/runtime/chat/persistence/export-session.ts';
import { parseRecord } from '../../electron/runtime/chat/persistence/session-records.ts';
import { openSettingsStore } from '../../electron/runtime/store/settings-store.ts';
import { startFakeOpenAI, type FakeOpenAIServer, type RecordedRequest } from '../support/fake-openai-server.ts';
import { demoGroup, fakeProviderSettings, recordEvents, staticTools, tmpHome } from '../support/chat-harness.ts';

let server: FakeOpenAIServer | undefined;
const managers: SessionManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) m.closeAll();
  await server?.close();
  server = undefined;
});

const lastUserText = (request: RecordedRequest) => {
  const content = request.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1)?.content;
  return typeof content === 'string' ? content : content.map((p: { text?: string }) => p.text ?? '[image]').join(' ');
};

async function setup() {
  let n = 0;
  server = await startFakeOpenAI({ script: (request) => ({ text: `answer ${++n} to ${lastUserText(request)}`, usage: { prompt_tokens: 10, completion_tokens: 5 } }), models: ['fake-model', 'other-model'] });
  const home = tmpHome();
  const settings = openSettingsStore(home);
  fakeProviderSettings(settings, server.url);
  settings.update({ groupDefaults: { demo: true } });
  const manager = new SessionManager({ home, settings, tools: staticTools([demoGroup()]) });
  managers.push(manager);
  return { home, settings, manager, server };
}

const done = async (result: unknown) => (result as { done: Promise<{ stopReason: string }> }).done;
const texts = (messages: Array<{ content: string }>) => messages.map((m) => m.content);

describe('chat branches', () => {
  it('Regenerate keeps the old answer as a branch; switching and reopening show the chosen one', async () => {
    const { manager } = await setup();
    const session = manager.create();
    const rec = recordEvents(session);
    await done(session.send('hello'));
    const first = session.messages().at(-1)!;
    expect(first.content).toBe('answer 1 to hello');
    await done(session.regenerate(first.id));
    expect(texts(session.messages())).toEqual(['hello', 'answer 2 to hello']);
    const second = session.messages().at(-1)!;
    expect(session.branches()[second.id]).toMatchObject({ index: 2, count: 2, previous: first.id });
    // The renderer learns the path moved before the new answer arrives.
    const pathEvent = rec.events.find((e): e is Extract<ChatEvent, { type: 'session.path' }> => e.type === 'session.path')!;
    expect(texts(pathEvent.messages)).toEqual(['hello']);
    expect(rec.events.find((e) => e.type === 'session.message' && e.message.id === second.id)).toMatchObject({ branch: { index: 2, count: 2 } });

    expect(session.switchBranch(first.id)).toBe(true);
    expect(texts(session.messages())).toEqual(['hello', 'answer 1 to hello']);
    manager.closeAll();
    const reopened = manager.open(session.id);
    expect(texts(reopened.messages())).toEqual(['hello', 'answer 1 to hello']);
    expect(reopened.branches()[first.id]).toMatchObject({ index: 1, count: 2, next: second.id });
  });

  it('Edit resends from the edited message; the old question and its answer stay as a branch', async () => {
    const { manager, server } = await setup();
    const session = manager.create();
    recordEvents(session);
    await done(session.send('first question'));
    await done(session.send('second question'));
    const secondQuestion = session.messages()[2]!;
    await done(session.edit(secondQuestion.id, 'second question, edited'));
    expect(texts(session.messages())).toEqual(['first question', 'answer 1 to first question', 'second question, edited', 'answer 3 to second question, edited']);
    // The model saw the edited branch only.
    const sent = server.chatRequests().at(-1)!.body.messages.filter((m: { role: string }) => m.role !== 'system').map((m: { content: string }) => m.content);
    expect(sent).toEqual(['first question', 'answer 1 to first question', 'second question, edited']);
    const edited = session.messages()[2]!;
    expect(session.branches()[edited.id]).toMatchObject({ index: 2, count: 2 });
    expect(session.switchBranch(secondQuestion.id)).toBe(true);
    expect(texts(session.messages()).at(-1)).toBe('answer 2 to second question');
    expect(session.edit('no-such-id', 'x')).toMatchObject({ ok: false, error: { name: 'NotFoundError' } });
  });

  it('Delete removes one message; what followed continues from the message before; reopening agrees', async () => {
    const { manager } = await setup();
    const session = manager.create();
    recordEvents(session);
    await done(session.send('one'));
    await done(session.send('two'));
    const answerOne = session.messages()[1]!;
    expect(session.deleteMessage(answerOne.id)).toBe(true);
    expect(texts(session.messages())).toEqual(['one', 'two', 'answer 2 to two']);
    manager.closeAll();
    expect(texts(manager.open(session.id).messages())).toEqual(['one', 'two', 'answer 2 to two']);
    expect(manager.list()[0]!.messageCount).toBe(3);
  });

  it('a resend with the same messageId starts nothing (a request retried after a lost connection)', async () => {
    const { manager, server } = await setup();
    const session = manager.create();
    recordEvents(session);
    await done(session.send('only once', { messageId: 'client-1' }));
    const again = session.send('only once', { messageId: 'client-1' });
    expect(again.ok).toBe(true);
    await done(again);
    expect(texts(session.messages())).toEqual(['only once', 'answer 1 to only once']);
    expect(server.chatRequests()).toHaveLength(1);
  });
});

describe('a session file written before branches existed', () => {
  it('opens unchanged, and a regenerate on it adds a branch without touching the old lines', async () => {
    const { manager, home } = await setup();
    const id = 'mwub5amm-291a60';
    mkdirSync(join(home, 'sessions'), { recursive: true });
    const file = join(home, 'sessions', `${id}.jsonl`);
    copyFileSync(new URL('../fixtures/sessions/legacy-v1.jsonl', import.meta.url), file);
    const before = readFileSync(file, 'utf8');
    const session = manager.open(id);
    expect(manager.warnings.get(id)).toBeUndefined();
    expect(session.messages().map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'assistant', 'user', 'tool']);
    expect(session.messages()[1]!.content).toBe('Hello **there**!');
    expect(session.branches()).toEqual({});
    recordEvents(session);
    await done(session.regenerate(session.messages()[1]!.id));
    expect(texts(session.messages())).toEqual(['Say hello', 'answer 1 to Say hello']);
    expect(readFileSync(file, 'utf8').startsWith(before)).toBe(true);
    // Every line is still a record an older reader knows or skips on its own.
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.every((l) => typeof parseRecord(l) !== 'string')).toBe(true);
    // The old reader's view (every message in file order) still holds the old conversation first.
    const state = readSessionFile(file, id);
    expect(state.tree.all().slice(0, 8).map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'assistant', 'user', 'tool']);
  });
});

describe('a chat of its own', () => {
  it('its model goes into the request and onto each answer; new chats start with the last choice', async () => {
    const { manager, server, settings } = await setup();
    const session = manager.create();
    recordEvents(session);
    manager.setChatSettings(session.id, { providerId: 'fake', model: 'other-model', systemPrompt: 'Be brief.', temperature: 0.2, maxTokens: 64 });
    await done(session.send('hi'));
    const body = server.chatRequests().at(-1)!.body;
    expect(body.model).toBe('other-model');
    expect(body.temperature).toBe(0.2);
    expect(body.max_tokens).toBe(64);
    expect(body.messages[0]).toEqual({ role: 'system', content: expect.stringContaining('Be brief.') });
    const answer = session.messages().at(-1)!;
    expect(answer).toMatchObject({ role: 'assistant', model: 'other-model', providerId: 'fake', usage: { inputTokens: 10, outputTokens: 5 } });
    expect((answer as { timing?: { totalMs: number } }).timing?.totalMs).toBeGreaterThanOrEqual(0);
    expect(settings.get().lastChatModel).toEqual({ providerId: 'fake', model: 'other-model' });
    const next = manager.create();
    expect(next.chatSettings()).toEqual({ providerId: 'fake', model: 'other-model' });
    manager.closeAll();
    expect(manager.open(session.id).chatSettings()).toMatchObject({ model: 'other-model', systemPrompt: 'Be brief.' });
  });
});

describe('attachments', () => {
  it('an image goes to the model as an image part; a text file as bounded text with a variable holding all of it', async () => {
    const { manager, server } = await setup();
    const session = manager.create();
    recordEvents(session);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const long = 'x'.repeat(25_000) + '\nTHE END';
    const stored = [
      await session.storeAttachment({ name: 'dot.png', mediaType: 'image/png', data: png.toString('base64') }, 'm1-1'),
      await session.storeAttachment({ name: 'notes.txt', mediaType: 'text/plain', data: Buffer.from(long).toString('base64') }, 'm1-2'),
    ];
    await done(session.send('what is this?', { attachments: stored }));
    const user = server.chatRequests().at(-1)!.body.messages.find((m: { role: string }) => m.role === 'user');
    expect(user.content[0]).toEqual({ type: 'text', text: 'what is this?' });
    expect(user.content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } });
    expect(user.content[2].text).toMatch(/^Attached file notes\.txt \(the first 20000 of 25008 characters\) The whole text is in the variable \$attachment_/);
    const message = session.messages()[0]!;
    expect(message).toMatchObject({ attachments: [{ name: 'dot.png', kind: 'image' }, { name: 'notes.txt', kind: 'text', truncated: true, chars: 25_008 }] });
    const variable = (message as { attachments: Array<{ variable?: string }> }).attachments[1]!.variable!;
    expect(session.tools.variables.peek(variable)?.value.endsWith('THE END')).toBe(true);
    // Reopened, the model gets the same parts (the files are kept beside the session).
    manager.closeAll();
    const reopened = manager.open(session.id);
    recordEvents(reopened);
    await done(reopened.send('and now?'));
    const again = server.chatRequests().at(-1)!.body.messages.find((m: { role: string }) => m.role === 'user');
    expect(again.content[1].image_url.url).toContain(png.toString('base64'));
  });

  it('refuses a binary file and an unknown type with a message naming the file', async () => {
    const { manager } = await setup();
    const session = manager.create();
    await expect(session.storeAttachment({ name: 'a.bin', mediaType: 'application/octet-stream', data: 'AAAA' }, 'm')).rejects.toThrow(/a\.bin: attach images, text files or PDFs/);
    await expect(session.storeAttachment({ name: 'a.txt', mediaType: 'text/plain', data: Buffer.from('a\u0000b').toString('base64') }, 'm')).rejects.toThrow(/a\.txt: this looks like a binary file/);
    await expect(session.storeAttachment({ name: 'bad.pdf', mediaType: 'application/pdf', data: Buffer.from('not a pdf').toString('base64') }, 'm')).rejects.toThrow(/bad\.pdf: the PDF could not be read/);
  });

  it('a PDF becomes its text', async () => {
    const { manager } = await setup();
    const session = manager.create();
    const stored = await session.storeAttachment({ name: 'hello.pdf', mediaType: 'application/pdf', data: readFileSync(new URL('../fixtures/sessions/hello.pdf', import.meta.url)).toString('base64') }, 'm');
    expect(stored.text).toContain('Hello PDF world');
    expect(stored.attachment).toMatchObject({ kind: 'pdf', name: 'hello.pdf' });
  });
});

describe('search and export', () => {
  it('finds sessions by message text with the matching line; exports Markdown with tool calls folded', async () => {
    const { manager } = await setup();
    const session = manager.create();
    recordEvents(session);
    await done(session.send('first line\nthe zebra crossing is here\nlast line'));
    await done(session.send('/echo {"text": "tool output"}'));
    const hits = manager.search('ZEBRA');
    expect(hits).toHaveLength(1);
    expect(hits[0]!.snippet).toBe('the zebra crossing is here');
    const messages = session.messages();
    manager.closeAll();
    // Closed sessions are read from their files; the newest matching message wins (the answer quotes the question).
    expect(manager.search('zebra')[0]!.messageId).toBe(messages[1]!.id);
    expect(manager.search('no such words')).toEqual([]);

    const reopened = manager.open(session.id);
    const md = exportSession({ info: reopened.info, messages: reopened.messages() }, 'md');
    expect(md.fileName).toBe('first-line.md');
    expect(md.content).toContain('# first line\n');
    expect(md.content).toContain('## User\n\nfirst line\nthe zebra crossing is here');
    expect(md.content).toMatch(/<details><summary>Tool result: echo → SUCCESS<\/summary>[\s\S]*"text": "tool output"[\s\S]*echo: tool output[\s\S]*<\/details>/);
    const json = JSON.parse(exportSession({ info: reopened.info, messages: reopened.messages(), allMessages: reopened.allMessages() }, 'json').content);
    expect(json).toMatchObject({ format: 'tooldesk-session', session: { id: session.id } });
    expect(json.messages).toHaveLength(reopened.messages().length);
  });
});
