// Closing something that holds the keyboard (a menu, a drawer, an inline editor) must not drop it
// on the page body: it goes back to the control that opened it. Focus the user already moved
// elsewhere (the message box, another field) stays where it is.

/**
 * Call just before `container` closes. Once it has, `opener()` gets the keyboard if the keyboard
 * was inside `container`, or nothing has it any more.
 */
export function returnFocusAfterClose(container: Element | null | undefined, opener: () => HTMLElement | null | undefined): void {
  const wasInside = !!container && container.contains(document.activeElement);
  queueMicrotask(() => {
    const now = document.activeElement;
    if (wasInside || !now || now === document.body) opener()?.focus();
  });
}
