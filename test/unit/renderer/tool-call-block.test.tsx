import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@solidjs/testing-library';
import { createStore } from 'solid-js/store';
import { ToolCallBlock } from '../../../renderer/src/chat/tool-calls/tool-call-block.tsx';
import type { ToolCallState } from '../../../renderer/src/store/app-state.ts';
import type { ApprovalRequest } from '../../../shared/tools.ts';

const base: ToolCallState = {
  callId: 'c1',
  toolName: 'search_files',
  groupName: 'files',
  args: { pattern: 'TODO', path: '/src' },
  status: 'running',
  startedAt: Date.now() - 1500,
  partial: '',
  reruns: [],
};

function setup(initial: Partial<ToolCallState> = {}, approvals: ApprovalRequest[] = []) {
  const [call, setCall] = createStore<ToolCallState>({ ...base, ...initial });
  const handlers = { onAnswer: vi.fn(), onCancel: vi.fn(), onOpenVariable: vi.fn() };
  render(() => <ToolCallBlock call={call} approvals={approvals} {...handlers} />);
  return { setCall, ...handlers, block: () => screen.getByTestId('tool-call') };
}

describe('ToolCallBlock', () => {
  it('shows name, group, compressed args and running status with elapsed time and cancel', () => {
    const { block, onCancel } = setup();
    expect(block()).toHaveTextContent('search_files');
    expect(block()).toHaveTextContent('files');
    expect(block()).toHaveTextContent('pattern="TODO", path="/src"');
    expect(screen.getByTestId('tool-status')).toHaveTextContent(/running · 1\.\d s/);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
  });

  it("prefers the tool's own compressArgs summary", () => {
    const { block } = setup({ summary: 'grep TODO in /src' });
    expect(block()).toHaveTextContent('grep TODO in /src');
  });

  it('streams partial output, then folds the result (collapsed by default)', () => {
    const { setCall, block } = setup();
    setCall('partial', 'found 1\n');
    setCall('partial', (p) => `${p}found 2\n`);
    expect(screen.getByTestId('tool-partial')).toHaveTextContent('found 1 found 2');
    setCall({ status: 'done', finishedAt: Date.now(), result: { status: 'SUCCESS', formattedText: 'a.ts:1 TODO', finalText: 'a.ts:1 TODO', durationMs: 42 } });
    expect(screen.queryByTestId('tool-partial')).toBeNull();
    expect(screen.getByTestId('tool-status')).toHaveTextContent('done · 42 ms');
    const details = screen.getByTestId('tool-result') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details).toHaveTextContent('a.ts:1 TODO');
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(block().dataset.status).toBe('done');
  });

  it('shows a truncated badge naming the _result variable and opens it', () => {
    const { onOpenVariable } = setup({
      status: 'done',
      result: { status: 'SUCCESS', formattedText: 'x', finalText: 'x', isTruncated: true, cacheVarResult: 'search_files_c1_result' },
    });
    expect(screen.getByTestId('truncated-badge')).toHaveTextContent('truncated · search_files_c1_result');
    fireEvent.click(screen.getByRole('button', { name: 'Open full result' }));
    expect(onOpenVariable).toHaveBeenCalledWith('search_files_c1_result');
  });

  it.each([
    ['approval', 'waiting for approval'],
    ['error', 'error'],
    ['rejected', 'rejected'],
  ] as const)('status %s reads "%s"', (status, text) => {
    setup({ status });
    expect(screen.getByTestId('tool-status')).toHaveTextContent(text);
  });

  // A rejection carries no output since results are a union on status: the two halves of this
  // test (the reason line, output as text) each get a result that can carry what they show.
  it('shows the reject reason and renders tool output as text', () => {
    setup({ status: 'rejected', result: { status: 'EXECUTION_REJECTED', rejectReason: 'not now', finalText: 'The user did not allow running echo.' } });
    expect(screen.getByTestId('tool-call')).toHaveTextContent('Rejected: not now');
    cleanup();
    setup({ status: 'error', result: { status: 'ERROR', error: '<img src=x onerror=alert(1)>', finalText: 'Error: <img src=x onerror=alert(1)>' } });
    expect(screen.getByTestId('tool-call').querySelector('img')).toBeNull();
    expect(screen.getByTestId('tool-result')).toHaveTextContent('<img src=x onerror=alert(1)>');
  });

  it("lists the runtime's warnings about the call, as text", () => {
    setup({ status: 'done', result: { status: 'SUCCESS', formattedText: 'ok', finalText: 'ok', warnings: ['The working folder / contains your home', '<b>not html</b>'] } });
    const list = screen.getByTestId('tool-warnings');
    expect(list.querySelectorAll('li')).toHaveLength(2);
    expect(list).toHaveTextContent('The working folder / contains your home');
    expect(list.querySelector('b')).toBeNull();
  });

  it('shows no warning list when there is none', () => {
    setup({ status: 'done', result: { status: 'SUCCESS', formattedText: 'ok', finalText: 'ok' } });
    expect(screen.queryByTestId('tool-warnings')).toBeNull();
  });

  it('puts several approval cards inline and answers each by its request id', () => {
    const req = (id: string): ApprovalRequest => ({
      id,
      type: 'execution',
      sessionId: 's',
      callId: 'c1',
      toolName: 'search_files',
      groupName: 'files',
      args: {},
      policy: 'ask-once',
    });
    const { onAnswer } = setup({ status: 'approval' }, [req('r1'), { ...req('r2'), type: 'result', result: { status: 'SUCCESS', text: 'ok' } }]);
    expect(screen.getAllByTestId('execution-approval')).toHaveLength(1);
    expect(screen.getAllByTestId('result-approval')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(onAnswer).toHaveBeenCalledWith('r2', { decision: 'once' });
    fireEvent.click(screen.getByRole('button', { name: 'Approve for this session' }));
    expect(onAnswer).toHaveBeenCalledWith('r1', { decision: 'session' });
  });
});
