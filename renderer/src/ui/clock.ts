// One shared ticking "now" for relative times ("3s ago"): every label re-reads it, so they all
// stay current without a timer per row. The timer runs only while something reads it.
import { createSignal, getOwner, onCleanup } from 'solid-js';

const TICK_MS = 5_000;
const [now, setNow] = createSignal(Date.now());
let readers = 0;
let timer: ReturnType<typeof setInterval> | undefined;

/** The current time, refreshed every few seconds while any component uses it. */
export function useNow(): () => number {
  if (getOwner()) {
    if (readers++ === 0) {
      setNow(Date.now());
      timer = setInterval(() => setNow(Date.now()), TICK_MS);
    }
    onCleanup(() => {
      if (--readers === 0) clearInterval(timer);
    });
  }
  return now;
}
