// At most one turn per session: a turn (a message, an edit, a regenerate) or a tool run by hand
// holds the gate until it ends; abort() stops the one running. A turn's failure that escaped its
// own handling (a file the disk refused, our own bug) ends it as an error value, never a throw.
// Who must wait for the gate waits on a promise (whenIdle, or exclusive with `wait`), never on a
// timer: the gate wakes its waiters when the running turn ends.
import type { ErrorValue, StopReason } from '../../../../shared/chat.ts';
import { FileError } from '../../base/file-error.ts';

export type TurnOutcome = { turnId: string; stopReason: StopReason; error?: ErrorValue };

export type SendResult = { ok: true; turnId: string; done: Promise<TurnOutcome> } | { ok: false; error: ErrorValue };

export interface TurnGatePorts {
  newId(prefix: string): string;
  /** Why no turn may start (the session is closed), or undefined. */
  closedReason(): string | undefined;
  /** Contract: never throws. */
  started(turnId: string): void;
  /** Contract: never throws. */
  finished(outcome: TurnOutcome): void;
}

const errorValue = (name: string, message: string): ErrorValue => ({ name, message });

export class TurnGate {
  #turn: { id: string; controller: AbortController } | null = null;
  /** Woken when the running turn ends. */
  readonly #idleWaiters = new Set<() => void>();

  constructor(private readonly ports: TurnGatePorts) {}

  get running(): boolean {
    return this.#turn !== null;
  }

  /** Starts `work` as the session's turn, with events; refused while another runs or when closed. */
  start(work: (signal: AbortSignal) => Promise<Omit<TurnOutcome, 'turnId'>>): SendResult {
    const closed = this.ports.closedReason();
    if (closed) return { ok: false, error: errorValue('SessionClosed', closed) };
    if (this.#turn) return { ok: false, error: errorValue('SessionBusy', 'A turn is already running in this session; wait for it or abort it.') };
    const turn = { id: this.ports.newId('turn'), controller: new AbortController() };
    this.#turn = turn;
    this.ports.started(turn.id);
    const done = work(turn.controller.signal)
      .catch((error: unknown): Omit<TurnOutcome, 'turnId'> => ({
        stopReason: 'error',
        // A file that cannot be written (a full disk) is the user's to fix: its one line, not a stack.
        error: error instanceof FileError ? errorValue(error.name, error.message) : errorValue('InternalError', String((error as Error)?.stack ?? error)),
      }))
      .then((outcome) => {
        this.#release();
        const finished: TurnOutcome = { turnId: turn.id, ...outcome };
        this.ports.finished(finished);
        return finished;
      });
    return { ok: true, turnId: turn.id, done };
  }

  /**
   * Resolves true as soon as no turn runs (at once when none does), false when `signal` aborts
   * first. Contract: never rejects; a waiter that gave up is forgotten.
   */
  whenIdle(signal?: AbortSignal): Promise<boolean> {
    if (!this.#turn) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (idle: boolean) => {
        this.#idleWaiters.delete(wake);
        signal?.removeEventListener('abort', gaveUp);
        resolve(idle);
      };
      const wake = () => done(true);
      const gaveUp = () => done(false);
      this.#idleWaiters.add(wake);
      signal?.addEventListener('abort', gaveUp, { once: true });
    });
  }

  /**
   * Runs `work` holding the gate without turn events (a tool run by hand); the refusal's text
   * otherwise. With `wait`, a running turn is waited for (queued behind it) until `wait` aborts.
   */
  async exclusive<T>(work: (signal: AbortSignal) => Promise<T>, wait?: AbortSignal): Promise<{ ok: true; value: T } | { ok: false; message: string; busy?: true }> {
    // Another waiter may take the gate first when it frees: wait again for that one.
    while (wait && this.#turn && !this.ports.closedReason()) {
      if (!(await this.whenIdle(wait))) return { ok: false, message: 'A turn is still running in this session.', busy: true };
    }
    const closed = this.ports.closedReason();
    if (closed || this.#turn) return { ok: false, message: closed ?? 'A turn is running in this session; wait for it or abort it.', ...(closed ? {} : { busy: true as const }) };
    const controller = new AbortController();
    this.#turn = { id: this.ports.newId('turn'), controller };
    try {
      return { ok: true, value: await work(controller.signal) };
    } finally {
      this.#release();
    }
  }

  #release(): void {
    this.#turn = null;
    for (const wake of [...this.#idleWaiters]) wake();
  }

  /** Aborts the running turn; false when none runs. */
  abort(): boolean {
    if (!this.#turn) return false;
    this.#turn.controller.abort(new Error('aborted by the user'));
    return true;
  }
}
