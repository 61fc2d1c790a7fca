import { createSignal, onMount } from 'solid-js';
import type { ApprovalDecision } from '../../../shared/tools.ts';
import { focusIfIdle, moveFocusAfterAnswer } from './focus-if-idle.ts';

const isActivationKey = (e: KeyboardEvent) => e.key === 'Enter' || e.key === ' ' || e.key === 'Spacebar';

/**
 * What both approval cards share: the reason box, answering at most once, and focus (taken only
 * when nobody is typing; after the answer it moves to the next waiting card or back). Enter and
 * Space act only once the user moved focus into the card (Tab, a click, the jump shortcut, or
 * answering the card before): focus the card took by itself only lets Escape reject. Call inside
 * a component; put `onKeyDown`, `onKeyUp` and `onFocusIn` on the card.
 */
export function createCardState(props: {
  onAnswer: (decision: ApprovalDecision) => void;
  autofocus?: boolean;
  /** False while an approval cannot be given (edited arguments that do not validate); rejecting always works. */
  canApprove?: () => boolean;
  /** After Esc cleared the reason field (marked `data-reason`): e.g. hide it and give the keyboard back. */
  onReasonEscape?: () => void;
}) {
  const [reason, setReason] = createSignal('');
  const [answered, setAnswered] = createSignal(false);
  let focusedBefore: HTMLElement | null = null;
  let focusTarget: HTMLElement | undefined;
  // True while focus is where the card put it itself; any focus the user moves in clears it.
  let focusIsOurs = false;

  const answer = (decision: ApprovalDecision) => {
    if (answered()) return;
    if (decision.decision !== 'reject' && props.canApprove && !props.canApprove()) return;
    setAnswered(true);
    props.onAnswer(decision);
    const card = focusTarget?.closest<HTMLElement>('.approval-card');
    if (card) moveFocusAfterAnswer(card, focusedBefore);
  };
  const reject = () => answer(reason().trim() ? { decision: 'reject', reason: reason().trim() } : { decision: 'reject' });

  onMount(() => {
    if (!props.autofocus || !focusTarget) return;
    const taken = focusIfIdle(focusTarget);
    if (!taken) return;
    // Set after the focusin that focus() dispatched, which onFocusIn took for the user's.
    focusIsOurs = true;
    focusedBefore = taken.before;
  });

  const onFocusIn = () => {
    focusIsOurs = false;
  };

  /**
   * Escape rejects, except in the reason box (it clears the box: a half-typed reason is not an
   * answer); Enter in the reason box rejects; Enter elsewhere (not on a button) approves once.
   */
  const onKeyDown = (e: KeyboardEvent) => {
    const tag = (e.target as HTMLElement).tagName;
    // Keys typed into the argument editor are the editor's (Enter starts a line there).
    if ((e.target as HTMLElement).closest?.('[data-args-editor]')) return;
    if (e.key === 'Escape' && (e.target as HTMLElement).matches?.('[data-reason]')) {
      e.preventDefault();
      e.stopPropagation();
      setReason('');
      props.onReasonEscape?.();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      reject();
    } else if (focusIsOurs && isActivationKey(e)) {
      // Someone typing a sentence when the card took focus: their Space or Enter is not an answer.
      e.preventDefault();
    } else if (focusIsOurs && e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      // …and their letters belong in the message box: moving focus now lets this one land there.
      document.querySelector<HTMLElement>('[data-focus-home]')?.focus();
    } else if (e.key === 'Enter' && !e.shiftKey && tag !== 'BUTTON') {
      e.preventDefault();
      if (tag === 'TEXTAREA') reject();
      else answer({ decision: 'once' });
    }
  };
  /** A button acts on Space when it is released: that must be refused too. */
  const onKeyUp = (e: KeyboardEvent) => {
    if (focusIsOurs && isActivationKey(e)) e.preventDefault();
  };

  return {
    onKeyDown,
    onKeyUp,
    onFocusIn,
    reason,
    setReason,
    answered,
    answer,
    reject,
    /** Ref for the button that takes focus when the card appears. */
    focusRef: (el: HTMLElement) => (focusTarget = el),
  };
}
