// The bounded log of what each app said and asked (by the call whose block shows it): written by
// the app's block, read by the call's Inspect panel. At most LOG_LINES lines per app and MAX_APPS
// apps (the oldest log is dropped first).
import { createSignal, type Accessor, type Setter } from 'solid-js';

export const LOG_LINES = 200;
const MAX_APPS = 100;
const logs = new Map<string, [Accessor<string[]>, Setter<string[]>]>();

function entry(callId: string): [Accessor<string[]>, Setter<string[]>] {
  let found = logs.get(callId);
  if (!found) {
    found = createSignal<string[]>([]);
    logs.set(callId, found);
    if (logs.size > MAX_APPS) logs.delete(logs.keys().next().value!);
  }
  return found;
}

export const appMessages = (callId: string): string[] => entry(callId)[0]();

export function logAppMessage(callId: string, line: string): void {
  entry(callId)[1]((lines) => [...lines.slice(-(LOG_LINES - 1)), `${new Date().toLocaleTimeString()} ${line}`]);
}
