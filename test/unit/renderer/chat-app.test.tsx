// The chat around the tool flow: nothing lost while disconnected, drafts, message actions and
// branches, errors in place with Retry, the model picker and usage (component level; the e2e
// file test/e2e/chat-app.test.ts drives the same through the real runtime).
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@solidjs/testing-library';
import { App } from '../../../renderer/src/app.tsx';
import { createAppStore, type StoreConnection } from '../../../renderer/src/store/create-app-store.ts';
import { ApiError, API_ERRORS } from '../../../shared/api.ts';
import { defaultSettings } from '../../../shared/settings.ts';
import { fakeApi } from './fake-api.ts';

function fakeConnection(initial: 'connecting' | 'open' | 'closed' = 'open') {
  let state = initial;
  const listeners = new Set<(s: typeof state) => void>();
  const connection: StoreConnection & { set(s: typeof state): void } = {
    state: () => state,
    onConnectionChange: (l) => (listeners.add(l), () => void listeners.delete(l)),
    set(next) {
      state = next;
      for (const l of [...listeners]) l(next);
    },
  };
  return connection;
}

async function mount(overrides: Parameters<typeof fakeApi>[0] = {}, connection = fakeConnection()) {
  const fake = fakeApi({
    getSettings: () => ({ ...defaultSettings(), providers: [{ id: 'p', name: 'Local', kind: 'openai-compatible', baseURL: 'http://x', model: 'llama3.2' }], activeProviderId: 'p' }),
    ...overrides,
  });
  const store = createAppStore(fake.api, connection);
  render(() => <App store={store} />);
  await waitFor(() => expect(store.state.chats.s1).toBeDefined());
  return { ...fake, store, connection };
}

const type = (text: string) => {
  const box = screen.getByTestId('composer') as HTMLTextAreaElement;
  fireEvent.input(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: 'Enter' });
  return box;
};

describe('nothing lost', () => {
  it('a message typed while disconnected stays in the box, says so, and is sent once on reconnect', async () => {
    const connection = fakeConnection();
    const { calls } = await mount({}, connection);
    connection.set('connecting');
    const box = type('hello while offline');
    await screen.findByText('Not connected — will send when reconnected.');
    expect(box.value).toBe('hello while offline');
    expect(calls.sendMessage).not.toHaveBeenCalled();
    connection.set('open');
    await waitFor(() => expect(calls.sendMessage).toHaveBeenCalledTimes(1));
    expect(calls.sendMessage.mock.calls[0]![0]).toMatchObject({ sessionId: 's1', text: 'hello while offline' });
    await waitFor(() => expect(box.value).toBe(''));
    expect(screen.queryByTestId('send-waiting')).toBeNull();
  });

  it('a send cut by a lost connection is sent again with the same message id (the runtime stores it once)', async () => {
    const connection = fakeConnection();
    let attempts = 0;
    const { calls } = await mount(
      {
        sendMessage: () => {
          attempts++;
          if (attempts === 1) {
            connection.set('connecting');
            throw new ApiError({ name: API_ERRORS.disconnected, message: 'the connection to Tooldesk was lost' });
          }
          return { turnId: 't1' };
        },
      },
      connection,
    );
    const box = type('important');
    await screen.findByTestId('send-waiting');
    expect(box.value).toBe('important');
    connection.set('open');
    await waitFor(() => expect(calls.sendMessage).toHaveBeenCalledTimes(2));
    const [first, second] = calls.sendMessage.mock.calls.map((c) => c[0] as { messageId: string });
    expect(second!.messageId).toBe(first!.messageId);
    await waitFor(() => expect(box.value).toBe(''));
  });

  it('a refused send keeps the text and shows why', async () => {
    await mount({ sendMessage: () => { throw new ApiError({ name: 'AttachmentError', message: 'notes.bin: attach images, text files or PDFs.' }); } });
    const box = type('with a bad file');
    await screen.findByText('notes.bin: attach images, text files or PDFs.');
    expect(box.value).toBe('with a bad file');
  });

  it('"+ New chat" stores nothing until the first message', async () => {
    const { calls } = await mount();
    fireEvent.click(screen.getByTestId('new-session'));
    await screen.findByTestId('chat-draft');
    expect(calls.createSession).not.toHaveBeenCalled();
    type('first words');
    await waitFor(() => expect(calls.sendMessage).toHaveBeenCalledWith(expect.objectContaining({ sessionId: 's2', text: 'first words' })));
    expect(calls.createSession).toHaveBeenCalledTimes(1);
  });
});

describe('message actions and branches', () => {
  it('Edit, Regenerate, Delete and the branch switcher call the runtime; Copy copies the Markdown', async () => {
    const { calls, emit } = await mount();
    emit({ type: 'session.message', sessionId: 's1', message: { id: 'u1', role: 'user', content: 'question', createdAt: 1 } });
    emit({
      type: 'session.message',
      sessionId: 's1',
      message: { id: 'a2', role: 'assistant', content: 'answer **two**', createdAt: 2, model: 'llama3.2', usage: { inputTokens: 1200, outputTokens: 34, totalTokens: 1234 }, timing: { totalMs: 900, firstTokenMs: 250, tokensPerSecond: 51.2 } },
      branch: { index: 2, count: 2, previous: 'a1' },
    });
    const answer = (await screen.findAllByTestId('assistant-message'))[0]!;
    expect(within(answer).getByTestId('branch-position')).toHaveTextContent('2/2');
    expect(within(answer).getByTestId('message-model')).toHaveTextContent('llama3.2');
    expect(within(answer).getByTestId('message-usage')).toHaveTextContent('1.2k in · 34 out');
    expect(answer).toHaveTextContent('first token 250 ms');
    expect(answer).toHaveTextContent('51.2 tok/s');
    expect(screen.getByTestId('context-meter')).toHaveTextContent('1.2k / 128k tokens');
    fireEvent.click(within(answer).getByRole('button', { name: 'Previous branch' }));
    await waitFor(() => expect(calls.switchBranch).toHaveBeenCalledWith({ sessionId: 's1', messageId: 'a1' }));
    fireEvent.click(within(answer).getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(calls.regenerate).toHaveBeenCalledWith({ sessionId: 's1', messageId: 'a2' }));

    const write = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: write }, configurable: true });
    fireEvent.click(within(answer).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(write).toHaveBeenCalledWith('answer **two**'));

    const userRow = screen.getAllByTestId('row-user')[0]!;
    fireEvent.click(within(userRow).getByRole('button', { name: 'Edit' }));
    const edit = await screen.findByLabelText('Edit message');
    fireEvent.input(edit, { target: { value: 'question, better' } });
    fireEvent.keyDown(edit, { key: 'Enter' });
    await waitFor(() => expect(calls.editMessage).toHaveBeenCalledWith({ sessionId: 's1', messageId: 'u1', text: 'question, better' }));

    fireEvent.click(within(screen.getAllByTestId('row-user')[0]!).getByRole('button', { name: 'Delete' }));
    // The in-app dialog asks first (issue 25: no window.confirm).
    fireEvent.click(await screen.findByTestId('app-dialog-confirm'));
    await waitFor(() => expect(calls.deleteMessage).toHaveBeenCalledWith({ sessionId: 's1', messageId: 'u1' }));

    // The runtime answers a switch with the new path: the rows follow.
    emit({ type: 'session.path', sessionId: 's1', messages: [{ id: 'u1', role: 'user', content: 'question', createdAt: 1 }, { id: 'a1', role: 'assistant', content: 'answer one', createdAt: 2 }], branches: { a1: { index: 1, count: 2, next: 'a2' } } });
    await screen.findByText('answer one');
    expect(screen.queryByText('two')).toBeNull();
    expect(screen.getByTestId('branch-position')).toHaveTextContent('1/2');
  });

  it('an error is shown once, in place, with Retry resending the same turn', async () => {
    const { calls, emit } = await mount();
    emit({ type: 'session.message', sessionId: 's1', message: { id: 'u1', role: 'user', content: 'hi', createdAt: 1 } });
    emit({ type: 'session.message', sessionId: 's1', message: { id: 'a1', role: 'assistant', content: '', createdAt: 2, stopReason: 'error', error: { name: 'llm.server', message: 'Local answered 500.' } } });
    emit({ type: 'session.turn', sessionId: 's1', turnId: 't1', state: 'finished', stopReason: 'error', error: { name: 'llm.server', message: 'Local answered 500.' } });
    await waitFor(() => expect(screen.getAllByText(/Local answered 500\./)).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(calls.regenerate).toHaveBeenCalledWith({ sessionId: 's1', messageId: 'a1' }));

    // A turn error without an answer (no provider): a notice whose Retry answers the question again.
    emit({ type: 'session.turn', sessionId: 's1', turnId: 't2', state: 'finished', stopReason: 'error', error: { name: 'NoProvider', message: 'No model provider is configured.' } });
    const notice = await screen.findByTestId('turn-error');
    fireEvent.click(within(notice).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(calls.regenerate).toHaveBeenLastCalledWith({ sessionId: 's1', messageId: 'u1' }));
  });
});

describe('model per chat', () => {
  it('the picker lists every provider\'s models, filters, and stores the choice with the chat', async () => {
    const { calls } = await mount({
      listAllModels: () => ({
        models: [
          { providerId: 'p', providerName: 'Local', model: 'llama3.2' },
          { providerId: 'p', providerName: 'Local', model: 'qwen2.5-coder' },
          { providerId: 'o', providerName: 'OpenRouter', model: 'gpt-4o' },
        ],
        problems: [],
      }),
      setChatSettings: (req: { chat: unknown }) => req.chat,
    });
    expect(screen.getByTestId('model-current')).toHaveTextContent('llama3.2');
    fireEvent.click(screen.getByTestId('model-picker'));
    const search = await screen.findByTestId('model-search');
    await screen.findByText('OpenRouter');
    fireEvent.input(search, { target: { value: '4o' } });
    await waitFor(() => expect(screen.getAllByTestId('model-option')).toHaveLength(1));
    fireEvent.keyDown(search, { key: 'Enter' });
    await waitFor(() => expect(calls.setChatSettings).toHaveBeenCalledWith({ sessionId: 's1', chat: { providerId: 'o', model: 'gpt-4o' } }));
    await waitFor(() => expect(screen.getByTestId('model-current')).toHaveTextContent('gpt-4o'));
  });

  it('Chat settings saves the system prompt, temperature and max tokens; bad numbers are refused in place', async () => {
    const { calls } = await mount({ setChatSettings: (req: { chat: unknown }) => req.chat });
    fireEvent.click(screen.getByTestId('chat-settings-toggle'));
    fireEvent.input(await screen.findByLabelText('System prompt'), { target: { value: 'Answer in French.' } });
    fireEvent.input(screen.getByLabelText('Temperature'), { target: { value: '7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(/Temperature: a number from 0 to 2/);
    fireEvent.input(screen.getByLabelText('Temperature'), { target: { value: '0.3' } });
    fireEvent.input(screen.getByLabelText('Max tokens'), { target: { value: '256' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.setChatSettings).toHaveBeenCalledWith({ sessionId: 's1', chat: { systemPrompt: 'Answer in French.', temperature: 0.3, maxTokens: 256 } }));
  });
});

describe('chat settings kept', () => {
  it("saving Chat settings keeps the chat's model, tool set, level and switched-off skills", async () => {
    const chat = { providerId: 'p', model: 'llama3.2', toolSet: 'web', permissions: 'trusted' as const, skillsOff: ['pdf'], temperature: 1 };
    const { calls } = await mount({
      openSession: (req: { sessionId: string }) => ({ session: { id: req.sessionId, title: 'First chat', createdAt: 1, updatedAt: 2, messageCount: 0 }, messages: [], pendingApprovals: [], running: false, chat }),
      setChatSettings: (req: { chat: unknown }) => req.chat,
    });
    fireEvent.click(screen.getByTestId('chat-settings-toggle'));
    fireEvent.input(await screen.findByLabelText('Temperature'), { target: { value: '' } });
    fireEvent.input(screen.getByLabelText('Max tokens'), { target: { value: '64' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.setChatSettings).toHaveBeenCalledWith({ sessionId: 's1', chat: { providerId: 'p', model: 'llama3.2', toolSet: 'web', permissions: 'trusted', skillsOff: ['pdf'], maxTokens: 64 } }));
  });
});

describe('attachments in the composer', () => {
  it('Attach adds chips, refuses what it cannot send by name, warns about images for a model not known to see them', async () => {
    const { calls } = await mount();
    const input = screen.getByTestId('attach-input') as HTMLInputElement;
    const png = new File([new Uint8Array([137, 80, 78, 71])], 'dot.png', { type: 'image/png' });
    const bin = new File([new Uint8Array([0, 1])], 'tool.exe', { type: 'application/x-msdownload' });
    fireEvent.change(input, { target: { files: [png, bin] } });
    await screen.findByText('dot.png');
    expect(screen.getByTestId('attach-note')).toHaveTextContent('tool.exe: attach images, text files or PDFs.');
    expect(screen.getByTestId('attach-note')).toHaveTextContent('llama3.2 is not known to accept images');
    type('what is it?');
    await waitFor(() => expect(calls.sendMessage).toHaveBeenCalled());
    expect(calls.sendMessage.mock.calls[0]![0]).toMatchObject({ text: 'what is it?', attachments: [{ name: 'dot.png', mediaType: 'image/png', data: 'iVBORw==' }] });
    await waitFor(() => expect(screen.queryByText('dot.png')).toBeNull());
  });
});
