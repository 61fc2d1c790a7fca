import { isEditable, typedRecently } from './typing-watch.ts';

/**
 * Moves focus to `el` only when nobody is using the keyboard: not while a text field (the message
 * box, a reason box, a select, anything contenteditable) has focus, empty or not; not while
 * another approval card has it; not within a few seconds of a keystroke. Returns null when it
 * left focus alone, else the element that had focus before (to give it back after the answer).
 * Focus taken this way does not arm Enter/Space (see createCardState).
 */
export function focusIfIdle(el: HTMLElement): { before: HTMLElement | null } | null {
  const active = document.activeElement as HTMLElement | null;
  const busy = isEditable(active) || !!active?.closest('.approval-card') || typedRecently();
  if (busy) return null;
  el.focus();
  return { before: active };
}

/** The shortcut that jumps to the first waiting card: Ctrl+Shift+Enter (Cmd+Shift+Enter on macOS). */
export const isJumpToApprovalKey = (e: KeyboardEvent) => (e.ctrlKey || e.metaKey) && e.shiftKey && !e.altKey && e.key === 'Enter';

export const jumpToApprovalLabel = () => (/Mac|iPhone|iPad/.test(navigator.platform) ? '⌘⇧Enter' : 'Ctrl+Shift+Enter');

const firstWaitingButton = () =>
  [...document.querySelectorAll<HTMLElement>('.approval-card')]
    .map((card) => card.querySelector<HTMLButtonElement>('button.primary:not(:disabled)'))
    .find((button) => !!button);

/**
 * Focuses the first card still waiting (its primary button), scrolled into view. The user asked
 * for it, so Enter/Space act there. When the message list has scrolled the cards out of the
 * page, it goes back to the bottom (where the turn's cards are) first. False when none waits.
 */
export function focusFirstWaitingCard(): boolean {
  let button = firstWaitingButton();
  if (!button) {
    const list = document.querySelector<HTMLElement>('[data-testid="message-list"]');
    if (!list) return false;
    list.scrollTop = list.scrollHeight;
    list.dispatchEvent(new Event('scroll'));
    button = firstWaitingButton();
    if (!button) {
      requestAnimationFrame(() => firstWaitingButton()?.focus());
      return false;
    }
  }
  button.scrollIntoView?.({ block: 'nearest' });
  button.focus();
  return true;
}

/**
 * After a card is answered its buttons go disabled and the card goes away, which would drop
 * keyboard focus onto the page. When focus is still in the card (or already lost), move it to
 * the next card still waiting (parallel requests), else back to where it was before the card
 * took it, else to the message box (`data-focus-home`).
 */
export function moveFocusAfterAnswer(card: HTMLElement, before: HTMLElement | null): void {
  const now = document.activeElement;
  if (now && now !== document.body && !card.contains(now)) return;
  const next = [...document.querySelectorAll<HTMLElement>('.approval-card')]
    .filter((other) => other !== card)
    .map((other) => other.querySelector<HTMLButtonElement>('button.primary:not(:disabled)'))
    .find((button) => !!button);
  const back = before && before !== document.body && before.isConnected && !card.contains(before) ? before : null;
  const target = next ?? back ?? document.querySelector<HTMLElement>('[data-focus-home]');
  target?.focus();
}
