/** What a key pressed in the message box does. */
export type ComposerKeyAction = 'pick-next' | 'pick-previous' | 'complete' | 'close-menu' | 'send' | null;

/**
 * The message box's keys, as a pure function of the key and the `/` menu.
 * Contract: with the menu open, arrows move the pick, Tab completes, Enter completes unless the
 * text is already a suggestion's command in full (`/tool` with no arguments is then sent), Escape
 * closes the menu (and only the menu: the caller stops it there, so it does not stop the turn).
 * Otherwise Enter sends and Shift+Enter, or Enter while an input method composes, is a new line.
 * null: the key is the textarea's own. Every other action is the caller's (and its default is prevented).
 */
export function composerKeyAction(
  key: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'isComposing'>,
  menu: { open: boolean; exact: boolean },
): ComposerKeyAction {
  if (menu.open) {
    if (key.key === 'ArrowDown') return 'pick-next';
    if (key.key === 'ArrowUp') return 'pick-previous';
    if ((key.key === 'Enter' && !key.shiftKey && !menu.exact) || key.key === 'Tab') return 'complete';
    if (key.key === 'Escape') return 'close-menu';
  }
  return key.key === 'Enter' && !key.shiftKey && !key.isComposing ? 'send' : null;
}
