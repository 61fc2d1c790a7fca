// One `tools/call` in flight, possibly across several request rounds. An approval the executor
// asks for ends the current round with an `input_required` result (the SDK turns it into an
// `elicitation/create` push for 2025-era clients); the client's answer arrives in the next round,
// which resumes this same run. Each round lends its request context: progress goes to the round
// that is open, and cancelling that round aborts the run (its processes are killed).
import type { ApprovalDecision, ApprovalRequest, ToolExecuteResult, ToolUpdate } from '../../../../shared/tools.ts';
import { PendingAsks } from '../../base/pending-asks.ts';

export type CallStep = { kind: 'ask'; request: ApprovalRequest } | { kind: 'done'; result: ToolExecuteResult };

/** What a round lends to the run while it is open. */
export interface RoundPort {
  signal: AbortSignal;
  /** Sends a progress notification when the client asked for progress; never throws. */
  progress?: (message: string) => void;
}

export class CallRun {
  readonly controller = new AbortController();
  readonly result: Promise<ToolExecuteResult>;
  /** The question handed out to the client, at most one at a time (a call asks, then waits). */
  readonly #asks = new PendingAsks<ApprovalRequest, ApprovalDecision>({
    requested: () => this.#askArrived?.(),
    // abort(reason) passes the reason as text; a signal's abort carries an Error.
    dropped: (reason) => ({ decision: 'reject', reason: typeof reason === 'string' ? reason : 'Aborted while waiting for approval.' }),
    unattended: () => ({ decision: 'reject', reason: 'No one can answer.' }),
  });
  #askArrived: (() => void) | undefined;
  #round: RoundPort | undefined;
  #detachSignal: (() => void) | undefined;

  /** `start` runs the call; it gets this run's signal and progress sink. */
  constructor(start: (signal: AbortSignal, onUpdate: (update: ToolUpdate) => void) => Promise<ToolExecuteResult>) {
    // Started on the next tick, so `start` may already use the constructed run (ask()).
    this.result = Promise.resolve().then(() => start(this.controller.signal, (update) => this.#onUpdate(update)));
  }

  /** The executor's approval callback for this call. Resolves when the client answers (or the run ends). */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    return this.#asks.ask(request, signal);
  }

  /** Answers the question the last step handed out. */
  answer(decision: ApprovalDecision): void {
    const open = this.#asks.pending().at(-1);
    if (open) this.#asks.answer(open.id, decision);
  }

  /** Waits for the next thing the client must see: a question, or the final result. */
  async next(round: RoundPort): Promise<CallStep> {
    this.#attach(round);
    try {
      const asked = new Promise<void>((resolve) => {
        this.#askArrived = resolve;
        if (this.#asks.size > 0) resolve();
      });
      const first = await Promise.race([asked.then(() => 'ask' as const), this.result.then(() => 'done' as const)]);
      const open = this.#asks.pending().at(-1);
      if (first === 'ask' && open) return { kind: 'ask', request: open };
      return { kind: 'done', result: await this.result };
    } finally {
      this.#askArrived = undefined;
      this.#detach();
    }
  }

  /** The client went away or never answered: rejects what is pending and stops the tool. */
  abort(reason: string): void {
    this.#asks.rejectAll(reason);
    this.controller.abort(new Error(reason));
  }

  #attach(round: RoundPort): void {
    this.#round = round;
    const onAbort = () => this.abort('The client cancelled the call.');
    if (round.signal.aborted) onAbort();
    else round.signal.addEventListener('abort', onAbort, { once: true });
    this.#detachSignal = () => round.signal.removeEventListener('abort', onAbort);
  }

  #detach(): void {
    this.#detachSignal?.();
    this.#detachSignal = undefined;
    this.#round = undefined;
  }

  #onUpdate(update: ToolUpdate): void {
    const text = update.text ?? (update.details !== undefined ? safeJson(update.details) : '');
    this.#round?.progress?.(text);
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
