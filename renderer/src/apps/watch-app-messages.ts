// Counts every message one app's frame posts to Tooldesk (JSON-RPC or not, valid or not) against
// its budget, before the host bridge reads it. Over budget, `onOverflow` says why (once).
import type { AppMessageBudget } from './app-message-budget.ts';

/** Bytes of a posted value: its JSON, binary parts by their length (unmeasurable = too big). */
export function messageBytes(data: unknown): number {
  if (data instanceof ArrayBuffer) return data.byteLength;
  if (ArrayBuffer.isView(data)) return data.byteLength;
  let binary = 0;
  try {
    const json = JSON.stringify(data, (_key, value: unknown) => {
      if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
        binary += value.byteLength;
        return null;
      }
      return value;
    });
    return (json?.length ?? 0) + binary;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** Contract: returns the disposer; `onOverflow` is called at most once, synchronously. */
export function watchAppMessages(win: Window, source: () => MessageEventSource | null, budget: AppMessageBudget, onOverflow: (reason: string) => void): () => void {
  let over = false;
  const listener = (event: MessageEvent) => {
    if (over || event.source === null || event.source !== source()) return;
    const verdict = budget.take(messageBytes(event.data), Date.now());
    if (verdict.ok) return;
    over = true;
    // The bridge must not act on the message that went over.
    event.stopImmediatePropagation();
    onOverflow(verdict.reason);
  };
  // Capture on window: registered before the bridge's own listener, so it runs first.
  win.addEventListener('message', listener, true);
  return () => win.removeEventListener('message', listener, true);
}
