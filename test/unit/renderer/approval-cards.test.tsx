import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@solidjs/testing-library';
import { ExecutionApprovalCard } from '../../../renderer/src/approvals/execution-approval-card.tsx';
import { ResultApprovalCard } from '../../../renderer/src/approvals/result-approval-card.tsx';
import { focusFirstWaitingCard } from '../../../renderer/src/approvals/focus-if-idle.ts';
import type { ApprovalRequest } from '../../../shared/tools.ts';

const exec: ApprovalRequest = {
  id: 'r1',
  type: 'execution',
  sessionId: 's',
  callId: 'c1',
  toolName: 'write_file',
  groupName: 'files',
  args: { path: '/tmp/a.txt', content: 'x'.repeat(2000) },
  policy: 'ask-always',
};

describe('ExecutionApprovalCard', () => {
  it('shows the tool, its group, why it asks and every argument in full (a long value scrolls in its box)', () => {
    render(() => <ExecutionApprovalCard request={exec} onAnswer={() => {}} />);
    const card = screen.getByTestId('execution-approval');
    expect(card).toHaveAttribute('role', 'group');
    expect(card).toHaveTextContent('write_file');
    expect(card).toHaveTextContent('files');
    expect(card).toHaveTextContent('asks before every run');
    expect(card).toHaveTextContent('/tmp/a.txt');
    // Issue 14: never folded or hidden; the value's box scrolls (CSS).
    const values = screen.getAllByTestId('arg-value');
    expect(values[1]!.textContent).toBe('x'.repeat(2000));
    expect(screen.queryByText(/Show all/)).toBeNull();
  });

  it('names the variable next to a value that came from a $VAR_REF', () => {
    const request = { ...exec, varRefs: [{ arg: 'content', name: 'fetch_c1_result', chars: 2000 }] };
    render(() => <ExecutionApprovalCard request={request} onAnswer={() => {}} />);
    expect(screen.getByTestId('var-ref-chip')).toHaveTextContent('from fetch_c1_result · 2 000 characters');
  });

  it('Edit arguments: the schema form, checked live; Approve sends the edited arguments; invalid ones cannot be approved', async () => {
    const onAnswer = vi.fn();
    const checkArgs = vi.fn(async (args: Record<string, unknown>) =>
      typeof args.path === 'string' && args.path.startsWith('/') ? { ok: true } : { ok: false, message: 'path: must match pattern "^/"' },
    );
    const schema = { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path'] };
    render(() => <ExecutionApprovalCard request={exec} onAnswer={onAnswer} schema={schema} checkArgs={checkArgs} />);
    fireEvent.click(screen.getByRole('button', { name: 'Edit arguments' }));
    const path = screen.getByLabelText(/path/) as HTMLInputElement;
    expect(path.value).toBe('/tmp/a.txt');
    fireEvent.input(path, { target: { value: 'relative.txt' } });
    await vi.waitFor(() => expect(screen.getByTestId('args-validation')).toHaveTextContent('path: must match pattern "^/"'));
    expect(screen.getByRole('button', { name: 'Approve once' })).toBeDisabled();
    // Enter inside the editor is the editor's, never an approval.
    fireEvent.keyDown(path, { key: 'Enter' });
    expect(onAnswer).not.toHaveBeenCalled();
    fireEvent.input(path, { target: { value: '/tmp/b.txt' } });
    await vi.waitFor(() => expect(screen.getByTestId('args-validation')).toHaveTextContent('Valid.'));
    fireEvent.click(screen.getByRole('button', { name: 'Approve once' }));
    expect(onAnswer).toHaveBeenCalledWith({ decision: 'once', args: { path: '/tmp/b.txt', content: 'x'.repeat(2000) } });
  });

  it('Edit arguments: the raw JSON toggle; JSON that does not parse is flagged without asking the runtime', async () => {
    const onAnswer = vi.fn();
    const checkArgs = vi.fn(async () => ({ ok: true }));
    render(() => <ExecutionApprovalCard request={exec} onAnswer={onAnswer} schema={{ type: 'object', properties: { path: { type: 'string' } } }} checkArgs={checkArgs} />);
    fireEvent.click(screen.getByRole('button', { name: 'Edit arguments' }));
    fireEvent.click(screen.getByRole('button', { name: 'Raw JSON' }));
    const box = screen.getByLabelText('Arguments as JSON');
    fireEvent.input(box, { target: { value: '{"path": ' } });
    expect(screen.getByTestId('args-validation')).toHaveTextContent(/Not valid JSON/);
    expect(screen.getByRole('button', { name: 'Approve once' })).toBeDisabled();
    fireEvent.input(box, { target: { value: '{"path": "/x", "extra": [1, 2]}' } });
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Approve once' })).not.toBeDisabled());
    fireEvent.click(screen.getByRole('button', { name: 'Approve for this session' }));
    expect(onAnswer).toHaveBeenCalledWith({ decision: 'session', args: { path: '/x', extra: [1, 2] } });
  });

  it.each([
    ['Approve once', 'once'],
    ['Approve for this session', 'session'],
    ['Always allow this tool', 'always'],
  ] as const)('%s answers %s, once only', (label, decision) => {
    const onAnswer = vi.fn();
    render(() => <ExecutionApprovalCard request={exec} onAnswer={onAnswer} />);
    fireEvent.click(screen.getByRole('button', { name: label }));
    fireEvent.click(screen.getByRole('button', { name: label }));
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer).toHaveBeenCalledWith({ decision });
    expect(screen.getByRole('button', { name: 'Reject' })).toBeDisabled();
  });

  it('rejects with the typed reason, from the button or with Enter in the reason box', () => {
    const onAnswer = vi.fn();
    render(() => <ExecutionApprovalCard request={exec} onAnswer={onAnswer} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add reason…' }));
    const box = screen.getByLabelText('Reason for rejecting');
    fireEvent.input(box, { target: { value: 'use /tmp/b.txt instead' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onAnswer).toHaveBeenCalledWith({ decision: 'reject', reason: 'use /tmp/b.txt instead' });
  });

  it('is keyboard driven: focus lands on Approve once, Escape rejects', () => {
    const onAnswer = vi.fn();
    render(() => <ExecutionApprovalCard request={exec} onAnswer={onAnswer} autofocus />);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Approve once' }));
    fireEvent.keyDown(screen.getByTestId('execution-approval'), { key: 'Escape' });
    expect(onAnswer).toHaveBeenCalledWith({ decision: 'reject' });
  });

  it('does not take focus from the message box, empty or not; once the user jumps there and answers, focus goes back', () => {
    const box = document.createElement('textarea');
    box.setAttribute('data-focus-home', '');
    document.body.append(box);
    box.value = 'half a sentence';
    box.focus();
    const first = render(() => <ExecutionApprovalCard request={exec} onAnswer={() => {}} autofocus />);
    expect(document.activeElement).toBe(box);
    first.unmount();
    // Just sent: the box is empty, and still where the user types (see approval-focus.test.tsx).
    box.value = '';
    render(() => <ExecutionApprovalCard request={{ ...exec, id: 'r9' }} onAnswer={() => {}} autofocus />);
    expect(document.activeElement).toBe(box);
    expect(focusFirstWaitingCard()).toBe(true);
    const approve = screen.getByRole('button', { name: 'Approve once' });
    expect(document.activeElement).toBe(approve);
    fireEvent.click(approve);
    expect(document.activeElement).toBe(box);
    box.remove();
  });

  it('Enter on the card (not on a button) approves once', () => {
    const onAnswer = vi.fn();
    render(() => <ExecutionApprovalCard request={exec} onAnswer={onAnswer} />);
    fireEvent.keyDown(screen.getByTestId('execution-approval'), { key: 'Enter' });
    expect(onAnswer).toHaveBeenCalledWith({ decision: 'once' });
  });

  it('renders argument values as text, never as HTML', () => {
    const xss = { ...exec, args: { html: '<img src=x onerror="window.__x=1"><script>window.__x=2</script>' } };
    render(() => <ExecutionApprovalCard request={xss} onAnswer={() => {}} />);
    const card = screen.getByTestId('execution-approval');
    expect(card.querySelector('img, script')).toBeNull();
    expect(card).toHaveTextContent('<img src=x onerror=');
  });
});

describe('ResultApprovalCard', () => {
  const result: ApprovalRequest = {
    ...exec,
    id: 'r2',
    type: 'result',
    policy: 'always',
    result: { status: 'SUCCESS', text: 'the secret is 42' },
  };

  it('shows the result to be sent and approves it', () => {
    const onAnswer = vi.fn();
    render(() => <ResultApprovalCard request={result} onAnswer={onAnswer} autofocus />);
    const card = screen.getByTestId('result-approval');
    expect(card).toHaveTextContent('the secret is 42');
    expect(card).toHaveTextContent('before its result is sent');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Approve' }));
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(onAnswer).toHaveBeenCalledWith({ decision: 'once' });
  });

  it('rejects with a reason', () => {
    const onAnswer = vi.fn();
    render(() => <ResultApprovalCard request={result} onAnswer={onAnswer} />);
    fireEvent.input(screen.getByLabelText('Reason for rejecting the result'), { target: { value: 'contains a secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(onAnswer).toHaveBeenCalledWith({ decision: 'reject', reason: 'contains a secret' });
  });

  it('says when it asks because the tool failed', () => {
    render(() => <ResultApprovalCard request={{ ...result, policy: 'on-error', result: { status: 'ERROR', text: 'boom' } }} onAnswer={() => {}} />);
    expect(screen.getByTestId('result-approval')).toHaveTextContent('The tool failed');
    expect(screen.getByText('Error result')).toBeInTheDocument();
  });
});
