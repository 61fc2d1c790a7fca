import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@solidjs/testing-library';
import { DiagnosticsList, sortDiagnostics } from '../../../renderer/src/tools/diagnostics-list.tsx';
import type { VariableInfo } from '../../../shared/variables.ts';
import type { ChatMessage } from '../../../shared/chat.ts';
import { mountApp } from './mount-app.tsx';
import { fakeApi, fakeTool } from './fake-api.ts';
import { AppProvider } from '../../../renderer/src/store/app-context.tsx';
import { createAppStore } from '../../../renderer/src/store/create-app-store.ts';

const variable = (name: string, type: VariableInfo['type']): VariableInfo => ({ name, type, tags: [], size: 10, createdAt: 1, updatedAt: Date.now(), accessedAt: 1 });

describe('sessions sidebar', () => {
  it('searches, renames and deletes sessions', async () => {
    const { calls } = await mountApp({
      searchSessions: () => [{ session: { id: 's1', title: 'First chat', createdAt: 1, updatedAt: 2, messageCount: 3 }, snippet: '…the needle here…' }],
      renameSession: (req: { title: string }) => ({ id: 's1', title: req.title, createdAt: 1, updatedAt: 3, messageCount: 0 }),
    });
    fireEvent.input(screen.getByTestId('session-search'), { target: { value: 'needle' } });
    await waitFor(() => expect(calls.searchSessions).toHaveBeenCalledWith({ query: 'needle' }));
    await screen.findByText('…the needle here…');
    fireEvent.input(screen.getByTestId('session-search'), { target: { value: '' } });

    fireEvent.click(screen.getByRole('button', { name: 'Rename First chat' }));
    const input = await screen.findByLabelText('Session title');
    fireEvent.input(input, { target: { value: 'Renamed' } });
    (input as HTMLInputElement).value = 'Renamed';
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(calls.renameSession).toHaveBeenCalledWith({ sessionId: 's1', title: 'Renamed' }));

    fireEvent.click(screen.getByRole('button', { name: 'Delete First chat' }));
    fireEvent.click(await screen.findByTestId('app-dialog-confirm'));
    await waitFor(() => expect(calls.deleteSession).toHaveBeenCalledWith({ sessionId: 's1' }));
    // The deleted session was open: a new chat takes its place, stored only with its first message.
    await screen.findByTestId('chat-draft');
    expect(calls.createSession).not.toHaveBeenCalled();
  });
});

describe('variables panel', () => {
  it('filters by type and search, deletes, and never offers to delete a RULE', async () => {
    const all = [variable('echo_c1_result', 'ToolCallResult'), variable('Rule/files/paths', 'RULE')];
    const { calls } = await mountApp({
      listVariables: (req: { type?: string; search?: string }) => all.filter((v) => (!req.type || v.type === req.type) && (!req.search || v.name.includes(req.search))),
    });
    fireEvent.click(screen.getByTestId('tab-variables'));
    await screen.findByText('echo_c1_result');
    const rows = screen.getAllByTestId('variable-row');
    expect(within(rows[1]!).queryByRole('button', { name: /Delete/ })).toBeNull();

    fireEvent.change(screen.getByLabelText('Filter by type'), { target: { value: 'RULE' } });
    await waitFor(() => expect(calls.listVariables).toHaveBeenLastCalledWith({ sessionId: 's1', type: 'RULE' }));
    await waitFor(() => expect(screen.getAllByTestId('variable-row')).toHaveLength(1));
    fireEvent.change(screen.getByLabelText('Filter by type'), { target: { value: '' } });
    fireEvent.input(screen.getByLabelText('Search variables'), { target: { value: 'echo' } });
    await waitFor(() => expect(calls.listVariables).toHaveBeenLastCalledWith({ sessionId: 's1', search: 'echo' }));

    fireEvent.click(await screen.findByRole('button', { name: 'Delete echo_c1_result' }));
    await waitFor(() => expect(calls.deleteVariable).toHaveBeenCalledWith({ sessionId: 's1', name: 'echo_c1_result' }));
  });
});

describe('message list', () => {
  it('keeps only a window of a 5 000-message session in the DOM', async () => {
    const messages: ChatMessage[] = Array.from({ length: 5000 }, (_, i) =>
      i % 2 ? { role: 'assistant', id: `m${i}`, createdAt: i, content: `answer ${i}` } : { role: 'user', id: `m${i}`, createdAt: i, content: `question ${i}` },
    );
    await mountApp({ openSession: () => ({ session: { id: 's1', title: 'Long', createdAt: 1, updatedAt: 2, messageCount: 5000 }, messages, pendingApprovals: [], running: false }) });
    await screen.findByText('question 0');
    const rows = document.querySelectorAll('.message-row').length;
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(50);
  });
});

describe('diagnostics', () => {
  it('lists errors first, each with file:line and the hint', () => {
    const list = [
      { severity: 'warning' as const, file: '/t/a.py', line: 3, message: 'unused' },
      { severity: 'error' as const, file: '/t/b/definition.json', line: 7, column: 2, message: 'bad JSON', hint: 'Fix the comma.' },
      { severity: 'info' as const, file: '/t/c', message: 'note' },
    ];
    expect(sortDiagnostics(list).map((d) => d.severity)).toEqual(['error', 'warning', 'info']);
    // Its "How to fix" links open docs through the API, so the list lives inside the app's provider.
    const store = createAppStore(fakeApi({}).api) as unknown as Parameters<typeof AppProvider>[0]['value'];
    render(() => (
      <AppProvider value={store}>
        <DiagnosticsList diagnostics={list} />
      </AppProvider>
    ));
    const items = screen.getByTestId('diagnostics').querySelectorAll('li');
    expect(items[0]).toHaveTextContent('/t/b/definition.json:7:2');
    expect(items[0]).toHaveTextContent('bad JSON');
    expect(items[0]).toHaveTextContent('Fix the comma.');
    expect(items[1]).toHaveTextContent('/t/a.py:3');
    // Each links to a docs page: its own, else the formats' overview.
    expect(Array.from(items).map((li) => li.querySelector('[data-testid="help-link"]')?.getAttribute('data-docs'))).toEqual(['tools/README.md', 'tools/README.md', 'tools/README.md']);
  });
});

describe('tools panel', () => {
  it("a manual run can be cancelled from the form while it runs (that call only)", async () => {
    const tool = fakeTool('slow', { executionPolicy: 'auto', resultApprovalPolicy: 'never' });
    let finish: (value: unknown) => void = () => {};
    const { calls, emit } = await mountApp({
      listTools: () => ({ groups: [{ name: 'demo', enabled: true, builtin: false, tools: [tool] }], diagnostics: [] }),
      runTool: () => new Promise((resolve) => (finish = resolve)),
    });
    // A call from before the run is not ours.
    emit({ type: 'tool.started', sessionId: 's1', callId: 'old', toolName: 'slow', groupName: 'demo', args: {} });
    fireEvent.click(screen.getByTestId('tab-tools'));
    const item = (await screen.findAllByTestId('tool-item')).find((el) => el.dataset.tool === 'slow')!;
    fireEvent.click(item.querySelector('button.tool-open')!);
    fireEvent.click(await within(item).findByTestId('run-tool'));
    await waitFor(() => expect(calls.runTool).toHaveBeenCalled());
    expect(within(item).queryByTestId('cancel-run')).toBeNull();

    emit({ type: 'tool.started', sessionId: 's1', callId: 'c9', toolName: 'slow', groupName: 'demo', args: {} });
    fireEvent.click(await within(item).findByTestId('cancel-run'));
    await waitFor(() => expect(calls.cancelToolCall).toHaveBeenCalledWith({ sessionId: 's1', callId: 'c9' }));
    expect(calls.abort).not.toHaveBeenCalled();

    const result = { status: 'ERROR', error: 'slow was aborted (cancelled by the user).', finalText: 'Error: slow was aborted (cancelled by the user).' };
    emit({ type: 'tool.finished', sessionId: 's1', callId: 'c9', toolName: 'slow', result: result as never });
    finish(result);
    await within(item).findByTestId('run-result');
    expect(within(item).getByTestId('run-result')).toHaveTextContent('cancelled by the user');
    expect(within(item).queryByTestId('cancel-run')).toBeNull();
  });
});
