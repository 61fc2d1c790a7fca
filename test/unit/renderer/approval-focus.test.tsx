// Issue 10 §4: a keystroke must never answer an approval card nobody looked at. A card takes
// focus by itself only when nobody is typing, and focus it took by itself does not arm Enter or
// Space; it announces itself instead and a shortcut (Ctrl/Cmd+Shift+Enter) jumps to it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@solidjs/testing-library';
import { ExecutionApprovalCard } from '../../../renderer/src/approvals/execution-approval-card.tsx';
import { ResultApprovalCard } from '../../../renderer/src/approvals/result-approval-card.tsx';
import { focusFirstWaitingCard, isJumpToApprovalKey } from '../../../renderer/src/approvals/focus-if-idle.ts';
import { resetTypingWatch, TYPING_QUIET_MS, watchTyping } from '../../../renderer/src/approvals/typing-watch.ts';
import type { ApprovalRequest } from '../../../shared/tools.ts';

const request = (id: string, type: 'execution' | 'result' = 'execution'): ApprovalRequest => ({
  id,
  type,
  sessionId: 's',
  callId: `c-${id}`,
  toolName: 'delete_branch',
  groupName: 'git',
  args: { name: 'main' },
  policy: 'ask-always',
  ...(type === 'result' ? { result: { status: 'SUCCESS' as const, text: 'ok' } } : {}),
});

let stopWatch: () => void;
let now = 100_000;
const field = <K extends keyof HTMLElementTagNameMap>(tag: K): HTMLElementTagNameMap[K] => {
  const el = document.createElement(tag);
  document.body.append(el);
  return el;
};

beforeEach(() => {
  resetTypingWatch();
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  stopWatch = watchTyping(document);
  (document.activeElement as HTMLElement | null)?.blur();
});
afterEach(() => {
  stopWatch();
  cleanup();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('an approval card never takes the keyboard from someone typing', () => {
  it('not from the message box just after sending (focused and empty): the repro of issue 10 §4', () => {
    const box = field('textarea');
    box.setAttribute('data-focus-home', '');
    box.focus();
    const onAnswer = vi.fn();
    render(() => <ExecutionApprovalCard request={request('r1')} onAnswer={onAnswer} autofocus />);
    expect(document.activeElement).toBe(box);
    // What the user types next goes to the box, not to the card.
    fireEvent.keyDown(document.activeElement!, { key: ' ' });
    fireEvent.keyUp(document.activeElement!, { key: ' ' });
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(onAnswer).not.toHaveBeenCalled();
  });

  it.each([
    ['an input', () => field('input')],
    ['a select', () => field('select')],
    [
      'a contenteditable',
      () => {
        const div = field('div');
        div.contentEditable = 'true';
        div.tabIndex = 0;
        // jsdom does not compute isContentEditable.
        Object.defineProperty(div, 'isContentEditable', { value: true });
        return div;
      },
    ],
  ])('not from %s, empty or not', (_name, make) => {
    const el = make();
    el.focus();
    render(() => <ResultApprovalCard request={request('r2', 'result')} onAnswer={() => {}} autofocus />);
    expect(document.activeElement).toBe(el);
  });

  it(`not within ${TYPING_QUIET_MS} ms of a keystroke, even when the box lost focus; it does afterwards`, () => {
    const box = field('textarea');
    box.focus();
    fireEvent.keyDown(box, { key: 'h' });
    box.blur();
    now += TYPING_QUIET_MS - 10;
    render(() => <ExecutionApprovalCard request={request('r3')} onAnswer={() => {}} autofocus />);
    expect(document.activeElement).toBe(document.body);
    cleanup();
    now += 20;
    render(() => <ExecutionApprovalCard request={request('r4')} onAnswer={() => {}} autofocus />);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Approve once' }));
  });

  it('not from another card the user is answering', () => {
    const first = vi.fn();
    render(() => <ExecutionApprovalCard request={request('r5')} onAnswer={first} />);
    const [approve] = screen.getAllByRole('button', { name: 'Approve once' });
    approve!.focus();
    render(() => <ExecutionApprovalCard request={request('r6')} onAnswer={() => {}} autofocus />);
    expect(document.activeElement).toBe(approve);
  });
});

describe('focus a card took by itself', () => {
  it('lets neither Enter nor Space answer; Escape still rejects', () => {
    const onAnswer = vi.fn();
    render(() => <ExecutionApprovalCard request={request('r7')} onAnswer={onAnswer} autofocus />);
    const approve = screen.getByRole('button', { name: 'Approve once' });
    expect(document.activeElement).toBe(approve);
    for (const key of [' ', 'Enter']) {
      const down = fireEvent.keyDown(approve, { key });
      const up = fireEvent.keyUp(approve, { key });
      // Cancelled: the browser's own activation of the button does not happen either.
      expect([down, up]).toEqual([false, false]);
    }
    fireEvent.keyDown(screen.getByTestId('execution-approval'), { key: 'Enter' });
    expect(onAnswer).not.toHaveBeenCalled();
    fireEvent.keyDown(approve, { key: 'Escape' });
    expect(onAnswer).toHaveBeenCalledWith({ decision: 'reject' });
  });

  it('sends a typed letter on to the message box (the browser then puts it there)', () => {
    const box = field('textarea');
    box.setAttribute('data-focus-home', '');
    render(() => <ExecutionApprovalCard request={request('r11')} onAnswer={() => {}} autofocus />);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Approve once' }));
    fireEvent.keyDown(document.activeElement!, { key: 'o' });
    expect(document.activeElement).toBe(box);
  });

  it('arms Enter once the user moves focus inside the card (Tab, a click)', () => {
    const onAnswer = vi.fn();
    render(() => <ExecutionApprovalCard request={request('r8')} onAnswer={onAnswer} autofocus />);
    screen.getByRole('button', { name: 'Approve for this session' }).focus();
    screen.getByRole('button', { name: 'Approve once' }).focus();
    fireEvent.keyDown(screen.getByTestId('execution-approval'), { key: 'Enter' });
    expect(onAnswer).toHaveBeenCalledWith({ decision: 'once' });
  });

  it('a click always answers', () => {
    const onAnswer = vi.fn();
    render(() => <ExecutionApprovalCard request={request('r9')} onAnswer={onAnswer} autofocus />);
    fireEvent.click(screen.getByRole('button', { name: 'Always allow this tool' }));
    expect(onAnswer).toHaveBeenCalledWith({ decision: 'always' });
  });
});

describe('reaching a card', () => {
  it('announces itself with role="alert", naming the tool and the shortcut', () => {
    render(() => <ExecutionApprovalCard request={request('r10')} onAnswer={() => {}} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Approval needed for running delete_branch. Press Ctrl+Shift+Enter to go to it.');
  });

  it('Ctrl/Cmd+Shift+Enter is the shortcut; plain Enter, Shift+Enter and Ctrl+Enter are not', () => {
    const key = (init: KeyboardEventInit) => isJumpToApprovalKey(new KeyboardEvent('keydown', init));
    expect(key({ key: 'Enter', ctrlKey: true, shiftKey: true })).toBe(true);
    expect(key({ key: 'Enter', metaKey: true, shiftKey: true })).toBe(true);
    expect([key({ key: 'Enter' }), key({ key: 'Enter', shiftKey: true }), key({ key: 'Enter', ctrlKey: true }), key({ key: 'Enter', ctrlKey: true, shiftKey: true, altKey: true })]).toEqual([false, false, false, false]);
  });

  it('the jump goes to the first waiting card and arms it: Enter approves once, focus moves on to the next card, then home', () => {
    const box = field('textarea');
    box.setAttribute('data-focus-home', '');
    box.focus();
    const answers: string[] = [];
    render(() => (
      <>
        <ExecutionApprovalCard request={request('a')} onAnswer={(d) => answers.push(`a:${d.decision}`)} autofocus />
        <ExecutionApprovalCard request={request('b')} onAnswer={(d) => answers.push(`b:${d.decision}`)} autofocus />
      </>
    ));
    expect(document.activeElement).toBe(box);
    expect(focusFirstWaitingCard()).toBe(true);
    const [first, second] = screen.getAllByRole('button', { name: 'Approve once' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(screen.getAllByTestId('execution-approval')[0]!, { key: 'Enter' });
    expect(document.activeElement).toBe(second);
    fireEvent.keyDown(second!, { key: 'Escape' });
    expect(answers).toEqual(['a:once', 'b:reject']);
    expect(document.activeElement).toBe(box);
    expect(focusFirstWaitingCard()).toBe(false);
  });
});
