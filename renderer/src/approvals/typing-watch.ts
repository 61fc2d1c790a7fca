/**
 * When the user last typed, anywhere in the window. A new approval card must not take the
 * keyboard from someone who is typing: their next space or Enter would answer it unseen. Typing
 * stays "recent" for a few seconds, so a pause between two words does not open the door.
 */
export const TYPING_QUIET_MS = 4000;

let lastTypedAt = Number.NEGATIVE_INFINITY;

const isTypingKey = (e: KeyboardEvent) =>
  !e.ctrlKey && !e.metaKey && (e.key.length === 1 || e.key === 'Backspace' || e.key === 'Delete' || e.key === 'Enter' || e.key === 'Process');

/** Starts listening on `doc` (the App does this once). Returns the disposer. */
export function watchTyping(doc: Document = document): () => void {
  const note = () => (lastTypedAt = performance.now());
  const onKeyDown = (e: KeyboardEvent) => {
    if (isTypingKey(e)) note();
  };
  doc.addEventListener('keydown', onKeyDown, true);
  doc.addEventListener('input', note, true);
  doc.addEventListener('compositionupdate', note, true);
  return () => {
    doc.removeEventListener('keydown', onKeyDown, true);
    doc.removeEventListener('input', note, true);
    doc.removeEventListener('compositionupdate', note, true);
  };
}

export function typedRecently(now = performance.now()): boolean {
  return now - lastTypedAt < TYPING_QUIET_MS;
}

/** For tests: forget the last keystroke. */
export function resetTypingWatch(): void {
  lastTypedAt = Number.NEGATIVE_INFINITY;
}

/** A field that takes text: typing there must never be interrupted by a card. */
export function isEditable(el: Element | null): boolean {
  if (!el) return false;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (el as HTMLElement).isContentEditable;
}
