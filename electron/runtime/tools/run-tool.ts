// Runs one tool under a deadline and the caller's AbortSignal. This is the one owner of a tool's
// timeout: the tool gets a signal that fires on either (and the deadline in its context, so a
// process it starts is given a later limit only as a backstop). When the signal fires we wait a
// short grace for the tool to stop (its processes killed), then stop waiting even if it ignores
// the signal: a promise that never settles must not hang the chat.
import type { ToolUpdate } from '../../../shared/tools.ts';
import type { Tool, ToolContext, ToolRunResult } from './types.ts';

export type RunOutcome =
  | { kind: 'ok'; run: ToolRunResult }
  | { kind: 'threw'; message: string }
  /** `stopped`: what the tool reported once stopped, when it did within the grace (its logs). */
  | { kind: 'timeout'; timeoutMs: number; stopped?: ToolRunResult }
  | { kind: 'aborted'; reason: string; stopped?: ToolRunResult };

/** How long a stopped tool may take to settle (its process group killed) before we stop waiting, ms. */
export const STOP_GRACE_MS = 2000;

export interface RunToolOptions {
  callId: string;
  sessionId: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** A second signal that stops the tool (the session's lifetime), kept apart so no combined signal is made per call. */
  lifetime?: AbortSignal;
  onUpdate?: (update: ToolUpdate) => void;
  /** See STOP_GRACE_MS (the default). */
  stopGraceMs?: number;
  conversation?: ToolContext['conversation'];
}

class ToolTimeout extends Error {
  override name = 'TimeoutError';
}

export async function runTool(tool: Tool, args: Record<string, unknown>, options: RunToolOptions): Promise<RunOutcome> {
  const outer = options.signal;
  const lifetime = options.lifetime;
  if (outer?.aborted) return { kind: 'aborted', reason: reasonText(outer.reason) };
  if (lifetime?.aborted) return { kind: 'aborted', reason: reasonText(lifetime.reason) };
  // One controller the outer signals are linked to by hand (unlinked in `finally`): AbortSignal.any
  // costs a WeakRef and a registry entry per call, the larger part of a fast tool's overhead.
  const stop = new AbortController();
  const onOuterAbort = (event: Event): void => stop.abort((event.target as AbortSignal).reason);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  lifetime?.addEventListener('abort', onOuterAbort, { once: true });
  const signal = stop.signal;
  const timeoutMs = Math.max(1, options.timeoutMs);
  const timer = setTimeout(() => stop.abort(new ToolTimeout(`timed out after ${timeoutMs} ms`)), timeoutMs);
  let settled = false;
  const onUpdate = (update: ToolUpdate): void => {
    if (settled || !options.onUpdate) return;
    try {
      options.onUpdate(update);
    } catch {
      // Contract: onUpdate never throws into the tool.
    }
  };

  let onAbort: (() => void) | undefined;
  const stopped = new Promise<'stopped'>((resolve) => {
    onAbort = () => resolve('stopped');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const ran = (async (): Promise<RunOutcome> => {
    try {
      const value = await tool.execute(args, { callId: options.callId, sessionId: options.sessionId, signal, onUpdate, timeoutMs, ...(options.conversation ? { conversation: options.conversation } : {}) });
      return { kind: 'ok', run: toRunResult(value) };
    } catch (error) {
      return { kind: 'threw', message: errorText(error) };
    }
  })();
  try {
    const first = await Promise.race([ran, stopped]);
    if (first !== 'stopped') return first;
    // Decided now, whatever the tool says later: which message the model gets is never chance.
    // The first abort's reason is the controller's: the deadline's, or the caller's or session's.
    const outcome: RunOutcome = signal.reason instanceof ToolTimeout ? { kind: 'timeout', timeoutMs } : { kind: 'aborted', reason: reasonText(signal.reason) };
    const late = await within(ran, options.stopGraceMs ?? STOP_GRACE_MS);
    if (late?.kind === 'ok') outcome.stopped = late.run;
    return outcome;
  } finally {
    settled = true;
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    outer?.removeEventListener('abort', onOuterAbort);
    lifetime?.removeEventListener('abort', onOuterAbort);
  }
}

/** The promise's value if it settles within `ms`, else undefined. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

const RESULT_KEYS = ['status', 'data', 'error', 'formattedText'];

/** Tools should resolve a ToolRunResult; anything else is taken as the data itself. */
export function toRunResult(value: unknown): ToolRunResult {
  if (value === undefined || value === null) return { status: 'SUCCESS' };
  if (typeof value === 'object' && !Array.isArray(value) && RESULT_KEYS.some((k) => k in value)) {
    return value as ToolRunResult;
  }
  return { status: 'SUCCESS', data: value };
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

function reasonText(reason: unknown): string {
  if (reason === undefined) return 'aborted';
  return errorText(reason);
}
