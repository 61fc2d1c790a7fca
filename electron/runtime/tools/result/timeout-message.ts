// The one text a call that passed its deadline ends with, whichever part noticed first: the
// executor asks the tool's format for it, so the model and the UI never see a different one.
import type { Tool } from '../types.ts';

/** Where the default deadline of every tool without its own is set. */
export const SETTINGS_TIMEOUT_PLACE = 'Settings → Limits → Tool timeout (limits.toolTimeoutMs)';

/** `40 ms` below a second, else seconds: `1 s`, `1.5 s`, `30 s`. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** "timed out after N s — raise the tool's timeout in PLACE": the shape every format's text takes. */
export function timedOutText(timeoutMs: number, place: string): string {
  return `timed out after ${durationText(timeoutMs)} and was stopped — raise the tool's timeout in ${place}`;
}

/** The tool's own text (its format's), else a generic one naming the setting when it has none of its own. */
export function timeoutMessageOf(tool: Tool, modelName: string, timeoutMs: number): string {
  if (tool.timeoutMessage) {
    try {
      const text = tool.timeoutMessage(timeoutMs);
      if (typeof text === 'string' && text) return text;
    } catch {
      // A broken formatter must not hide the timeout: the generic text follows.
    }
  }
  if (tool.timeoutMs !== undefined) return `${modelName} timed out after ${durationText(timeoutMs)} and was stopped.`;
  return `${modelName} ${timedOutText(timeoutMs, SETTINGS_TIMEOUT_PLACE)}.`;
}
