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
  /** The owner's running calls (an executor's), which its close() stops: no listener per call. */
  lifetime?: RunningTools;
  onUpdate?: (update: ToolUpdate) => void;
  /** See STOP_GRACE_MS (the default). */
  stopGraceMs?: number;
  conversation?: ToolContext['conversation'];
  workingDir?: string;
}

class ToolTimeout extends Error {
  override name = 'TimeoutError';
}

/** The calls an owner has running, so ending it stops them all (an executor's close()). */
export class RunningTools {
  private readonly runs = new Set<ToolRun>();
  private endedBy: { reason: unknown } | undefined;

  /** Stops every running call, and every later one before it starts, with `reason`. */
  end(reason: unknown): void {
    this.endedBy ??= { reason };
    for (const run of this.runs) run.abort(reason);
  }

  /** How many calls are running. */
  get size(): number {
    return this.runs.size;
  }

  get ended(): { reason: unknown } | undefined {
    return this.endedBy;
  }

  add(run: ToolRun): void {
    this.runs.add(run);
  }

  delete(run: ToolRun): void {
    this.runs.delete(run);
  }
}

export async function runTool(tool: Tool, args: Record<string, unknown>, options: RunToolOptions): Promise<RunOutcome> {
  const outer = options.signal;
  const lifetime = options.lifetime;
  if (outer?.aborted) return { kind: 'aborted', reason: reasonText(outer.reason) };
  if (lifetime?.ended) return { kind: 'aborted', reason: reasonText(lifetime.ended.reason) };
  const timeoutMs = Math.max(1, options.timeoutMs);
  // The caller's signal is linked to the run by hand (unlinked in `finally`): AbortSignal.any
  // costs a WeakRef and a registry entry per call, the larger part of a fast tool's overhead.
  const run = new ToolRun(options, timeoutMs);
  outer?.addEventListener('abort', run, { once: true });
  lifetime?.add(run);
  const timer = setTimeout(abortOnTimeout, timeoutMs, run, timeoutMs);
  const ran = callTool(tool, args, run);
  try {
    const first = await new Promise<RunOutcome | typeof STOPPED>((resolve) => {
      run.onStop = resolve;
      void ran.then(resolve);
    });
    if (first !== STOPPED) return first;
    // Decided now, whatever the tool says later: which message the model gets is never chance.
    // The first abort's reason is the run's: the deadline's, or the caller's or session's.
    const outcome: RunOutcome = run.reason instanceof ToolTimeout ? { kind: 'timeout', timeoutMs } : { kind: 'aborted', reason: reasonText(run.reason) };
    const late = await within(ran, options.stopGraceMs ?? STOP_GRACE_MS);
    if (late?.kind === 'ok') outcome.stopped = late.run;
    return outcome;
  } finally {
    run.settled = true;
    run.onStop = undefined;
    clearTimeout(timer);
    outer?.removeEventListener('abort', run);
    lifetime?.delete(run);
  }
}

const STOPPED = Symbol('stopped');

/**
 * One call: the tool's context, and why the call stops (deadline, caller, session). A class, not
 * an object literal with getters: such a literal cost 0.6 µs a call, a tenth of a fast call. The
 * signal and onUpdate are getters on the class, made when the tool first reads them (most
 * in-process tools never do, and a controller costs more than the rest of the run); a tool that
 * copies its context reads them (`const { signal } = context`) rather than spreading it.
 */
class ToolRun implements ToolContext, EventListenerObject {
  readonly callId: string;
  readonly sessionId: string;
  readonly timeoutMs: number;
  readonly conversation: ToolContext['conversation'];
  readonly workingDir: string | undefined;
  reason: unknown;
  /** Wakes runTool's wait; cleared once the run is over. */
  onStop: ((value: typeof STOPPED) => void) | undefined;
  /** Updates after the run settled are dropped. */
  settled = false;
  private stopped = false;
  private controller: AbortController | undefined;
  private readonly listener: ((update: ToolUpdate) => void) | undefined;
  private forward: ((update: ToolUpdate) => void) | undefined;

  constructor(options: RunToolOptions, timeoutMs: number) {
    this.callId = options.callId;
    this.sessionId = options.sessionId;
    this.timeoutMs = timeoutMs;
    this.conversation = options.conversation;
    this.workingDir = options.workingDir;
    this.listener = options.onUpdate;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.stopped) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Never throws into the tool; silent once the run is over. */
  get onUpdate(): (update: ToolUpdate) => void {
    return (this.forward ??= (update) => {
      if (this.settled || !this.listener) return;
      try {
        this.listener(update);
      } catch {
        // Contract: onUpdate never throws into the tool.
      }
    });
  }

  /** The first reason wins, as a controller's does. */
  abort(reason: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.reason = reason;
    this.controller?.abort(reason);
    this.onStop?.(STOPPED);
  }

  /** The caller's signal's abort event. */
  handleEvent(event: Event): void {
    this.abort((event.target as AbortSignal).reason);
  }
}

function abortOnTimeout(run: ToolRun, timeoutMs: number): void {
  run.abort(new ToolTimeout(`timed out after ${timeoutMs} ms`));
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
