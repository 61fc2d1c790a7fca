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
  const timeoutMs = Math.max(1, options.timeoutMs);
  // The outer signals are linked to the stop by hand (unlinked in `finally`): AbortSignal.any
  // costs a WeakRef and a registry entry per call, the larger part of a fast tool's overhead.
  const stop = new RunStop();
  outer?.addEventListener('abort', stop, { once: true });
  lifetime?.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(abortOnTimeout, timeoutMs, stop, timeoutMs);
  let settled = false;
  const onUpdate = (update: ToolUpdate): void => {
    if (settled || !options.onUpdate) return;
    try {
      options.onUpdate(update);
    } catch {
      // Contract: onUpdate never throws into the tool.
    }
  };
  const context: ToolContext = {
    callId: options.callId,
    sessionId: options.sessionId,
    // Made when the tool reads it: most in-process tools never do, and a controller costs more
    // than the rest of the run.
    get signal() {
      return stop.signal();
    },
    onUpdate,
    timeoutMs,
    ...(options.conversation ? { conversation: options.conversation } : {}),
  };
  const ran = callTool(tool, args, context);
  try {
    const first = await new Promise<RunOutcome | typeof STOPPED>((resolve) => {
      stop.onStop = resolve;
      void ran.then(resolve);
    });
    if (first !== STOPPED) return first;
    // Decided now, whatever the tool says later: which message the model gets is never chance.
    // The first abort's reason is the stop's: the deadline's, or the caller's or session's.
    const outcome: RunOutcome = stop.reason instanceof ToolTimeout ? { kind: 'timeout', timeoutMs } : { kind: 'aborted', reason: reasonText(stop.reason) };
    const late = await within(ran, options.stopGraceMs ?? STOP_GRACE_MS);
    if (late?.kind === 'ok') outcome.stopped = late.run;
    return outcome;
  } finally {
    settled = true;
    stop.onStop = undefined;
    clearTimeout(timer);
    outer?.removeEventListener('abort', stop);
    lifetime?.removeEventListener('abort', stop);
  }
}

const STOPPED = Symbol('stopped');

/** Why a run stops (deadline, caller, session), and the tool's signal once the tool asks for it. */
class RunStop implements EventListenerObject {
  reason: unknown;
  private stopped = false;
  private controller: AbortController | undefined;
  /** Wakes runTool's wait; cleared once the run is over. */
  onStop: ((value: typeof STOPPED) => void) | undefined;

  signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.stopped) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** The first reason wins, as a controller's does. */
  abort(reason: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.reason = reason;
    this.controller?.abort(reason);
    this.onStop?.(STOPPED);
  }

  /** An outer signal's abort event. */
  handleEvent(event: Event): void {
    this.abort((event.target as AbortSignal).reason);
  }
}

function abortOnTimeout(stop: RunStop, timeoutMs: number): void {
  stop.abort(new ToolTimeout(`timed out after ${timeoutMs} ms`));
}

async function callTool(tool: Tool, args: Record<string, unknown>, context: ToolContext): Promise<RunOutcome> {
  try {
    return { kind: 'ok', run: toRunResult(await tool.execute(args, context)) };
  } catch (error) {
    return { kind: 'threw', message: errorText(error) };
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
