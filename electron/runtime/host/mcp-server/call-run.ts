// One `tools/call` in flight, possibly across several request rounds. An approval the executor
// asks for ends the current round with an `input_required` result (the SDK turns it into an
// `elicitation/create` push for 2025-era clients); the client's answer arrives in the next round,
// which resumes this same run. Each round lends its request context: progress goes to the round
// that is open (numbered by the run, so the numbers keep rising after a question), and cancelling
// that round aborts the run (its processes are killed). A question the tool itself asks (Open
// WebUI's __event_call__, a proxied server's elicitation) travels the same way as an `elicit`
// step, and its answer goes back to the tool unchanged. The round's state
// belongs to the round (the MCP SDK's requestState): a question handed out gets a token the
// client echoes in its next round, and a deadline (an abort signal) after which the question is
// answered "no answer came" by the run itself. resume(token) accepts only the open question's token.
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/server';
import type { ApprovalDecision, ApprovalRequest, ToolExecuteResult, ToolUpdate } from '../../../../shared/tools.ts';
import { PendingAsks } from '../../base/pending-asks.ts';

export type CallStep = { kind: 'ask'; request: ApprovalRequest } | { kind: 'elicit'; params: ElicitRequestFormParams } | { kind: 'done'; result: ToolExecuteResult };

type Question = { id: string; kind: 'approval'; request: ApprovalRequest } | { id: string; kind: 'elicit'; params: ElicitRequestFormParams };
type Answer = { kind: 'approval'; decision: ApprovalDecision } | { kind: 'elicit'; result: ElicitResult } | { kind: 'none'; reason: string };

/** What a round lends to the run while it is open. */
export interface RoundPort {
  signal: AbortSignal;
  /**
   * Sends a progress notification when the client asked for progress; never throws. `progress`
   * is the run's count, not the round's: it keeps rising across question rounds, as the protocol
   * wants a request's progress to rise.
   */
  progress?: (progress: number, message: string) => void;
}

export interface CallRunOptions {
  /** Names the run inside its question tokens, so a connection finds the run of a token. */
  id?: string;
  /** How long a question waits for the client's answer, ms (10 min). */
  answerTimeoutMs?: number;
}

/** The question handed out now: its token and the deadline's listener. */
interface OpenRound {
  token: string;
  stop: () => void;
}

/** The run's id a question token names (the part before the last dot). */
export function runIdOfToken(token: string): string {
  return token.slice(0, Math.max(0, token.lastIndexOf('.')));
}

export class CallRun {
  readonly controller = new AbortController();
  readonly id: string;
  readonly result: Promise<ToolExecuteResult>;
  /** The question handed out to the client, at most one at a time (a call asks, then waits). */
  readonly #asks = new PendingAsks<Question, Answer>({
    requested: () => this.#askArrived?.(),
    // abort(reason) passes the reason as text; a signal's abort carries an Error.
    dropped: (reason) => ({ kind: 'none', reason: typeof reason === 'string' ? reason : 'Aborted while waiting for approval.' }),
    unattended: () => ({ kind: 'none', reason: 'No one can answer.' }),
  });
  #elicitations = 0;
  #progress = 0;
  #askArrived: (() => void) | undefined;
  #round: RoundPort | undefined;
  #detachSignal: (() => void) | undefined;
  readonly #answerTimeoutMs: number;
  #open: OpenRound | undefined;

  /** `start` runs the call; it gets this run's signal and progress sink. */
  constructor(start: (signal: AbortSignal, onUpdate: (update: ToolUpdate) => void) => Promise<ToolExecuteResult>, options: CallRunOptions = {}) {
    this.id = options.id ?? globalThis.crypto.randomUUID();
    this.#answerTimeoutMs = options.answerTimeoutMs ?? 10 * 60_000;
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
      if (first === 'ask' && open) {
        this.#handOut(open.kind);
        return open.kind === 'approval' ? { kind: 'ask', request: open.request } : { kind: 'elicit', params: open.params };
      }
      return { kind: 'done', result: await this.result };
    } finally {
      this.#askArrived = undefined;
      this.#detach();
    }
  }

  /** The token of the question handed out by the last step, while it waits for its answer. */
  get questionToken(): string | undefined {
    return this.#open?.token;
  }

  /**
   * The client's next round names `token`: true when it is the open question's (its deadline is
   * then stopped, and the caller answers); false when that question was answered, expired or
   * never was this run's.
   */
  resume(token: string): boolean {
    if (!this.#open || this.#open.token !== token) return false;
    this.#closeRound();
    return true;
  }

  /** The client went away or never answered: rejects what is pending and stops the tool. */
  abort(reason: string): void {
    this.#closeRound();
    this.#asks.rejectAll(reason);
    this.controller.abort(new Error(reason));
  }

  /** A question goes out: a fresh token, and a deadline after which the run answers it itself. */
  #handOut(kind: Question['kind']): void {
    this.#closeRound();
    const timeout = AbortSignal.timeout(this.#answerTimeoutMs);
    const expire = () => {
      if (this.#open?.token !== token) return;
      this.#open = undefined;
      if (kind === 'elicit') this.answerElicitation({ action: 'cancel' });
      else this.answer({ decision: 'reject', reason: `No answer came within ${Math.round(this.#answerTimeoutMs / 1000)} s.` });
    };
    const token = `${this.id}.${globalThis.crypto.randomUUID()}`;
    timeout.addEventListener('abort', expire, { once: true });
    this.#open = { token, stop: () => timeout.removeEventListener('abort', expire) };
  }

  #closeRound(): void {
    this.#open?.stop();
    this.#open = undefined;
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
    const round = this.#round;
    if (round?.progress) round.progress(++this.#progress, text);
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
