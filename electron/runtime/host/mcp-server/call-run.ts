// One `tools/call` in flight, possibly across several request rounds. An approval the executor
// asks for ends the current round with an `input_required` result (the SDK turns it into an
// `elicitation/create` push for 2025-era clients); the client's answer arrives in the next round,
// which resumes this same run. Each round lends its request context: progress goes to the round
// that is open, and cancelling that round aborts the run (its processes are killed). A question
// the tool itself asks (Open WebUI's __event_call__, a proxied server's elicitation) travels the
// same way as an `elicit` step, and its answer goes back to the tool unchanged.
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/server';
import type { ApprovalDecision, ApprovalRequest, ToolExecuteResult, ToolUpdate } from '../../../../shared/tools.ts';
import { PendingAsks } from '../../base/pending-asks.ts';

export type CallStep = { kind: 'ask'; request: ApprovalRequest } | { kind: 'elicit'; params: ElicitRequestFormParams } | { kind: 'done'; result: ToolExecuteResult };

type Question = { id: string; kind: 'approval'; request: ApprovalRequest } | { id: string; kind: 'elicit'; params: ElicitRequestFormParams };
type Answer = { kind: 'approval'; decision: ApprovalDecision } | { kind: 'elicit'; result: ElicitResult } | { kind: 'none'; reason: string };

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
  readonly #asks = new PendingAsks<Question, Answer>({
    requested: () => this.#askArrived?.(),
    // abort(reason) passes the reason as text; a signal's abort carries an Error.
    dropped: (reason) => ({ kind: 'none', reason: typeof reason === 'string' ? reason : 'Aborted while waiting for approval.' }),
    unattended: () => ({ kind: 'none', reason: 'No one can answer.' }),
  });
  #elicitations = 0;
  #askArrived: (() => void) | undefined;
  #round: RoundPort | undefined;
  #detachSignal: (() => void) | undefined;

  /** `start` runs the call; it gets this run's signal and progress sink. */
  constructor(start: (signal: AbortSignal, onUpdate: (update: ToolUpdate) => void) => Promise<ToolExecuteResult>) {
    // Started on the next tick, so `start` may already use the constructed run (ask()).
    this.result = Promise.resolve().then(() => start(this.controller.signal, (update) => this.#onUpdate(update)));
  }

  /** The executor's approval callback for this call. Resolves when the client answers (or the run ends). */
  async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const answer = await this.#asks.ask({ id: request.id, kind: 'approval', request }, signal);
    return answer.kind === 'approval' ? answer.decision : { decision: 'reject', reason: answer.kind === 'none' ? answer.reason : 'No answer came.' };
  }

  /** A question of the tool's own, for the client's user. Resolves with the answer (cancel when none came). */
  async elicit(params: ElicitRequestFormParams, signal: AbortSignal): Promise<ElicitResult> {
    const answer = await this.#asks.ask({ id: `elicit_${++this.#elicitations}`, kind: 'elicit', params }, signal);
    return answer.kind === 'elicit' ? answer.result : { action: 'cancel' };
  }

  /** What the last step handed out, if it is still open. */
  get openQuestion(): 'approval' | 'elicit' | undefined {
    return this.#asks.pending().at(-1)?.kind;
  }

  /** Answers the approval the last step handed out. */
  answer(decision: ApprovalDecision): void {
    const open = this.#asks.pending().at(-1);
    if (open?.kind === 'approval') this.#asks.answer(open.id, { kind: 'approval', decision });
  }

  /** Answers the tool's question the last step handed out. */
  answerElicitation(result: ElicitResult): void {
    const open = this.#asks.pending().at(-1);
    if (open?.kind === 'elicit') this.#asks.answer(open.id, { kind: 'elicit', result });
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
      if (first === 'ask' && open) return open.kind === 'approval' ? { kind: 'ask', request: open.request } : { kind: 'elicit', params: open.params };
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
