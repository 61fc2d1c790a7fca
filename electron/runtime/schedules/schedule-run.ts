// One run of a schedule: a chat turn in the schedule's own chat with no one watching. The driver
// listens to the chat's events and turns them into the run's record:
//   a question (execution or result approval, an MCP elicitation)
//       onAsk `deny`  → answered "no" at once; the model is told nobody was there; counted as refused
//       onAsk `pause` → an Inbox item; the run is `waiting` (saved), the user is notified (once per
//                       question: the item records it, a restart does not notify again) and
//                       `settled` resolves; the turn
//                       itself stays open in this process until the user answers (answer()), the
//                       session closes (the process stops: the chat file keeps the question), or
//                       after a restart the driver is attached again (resume) and the turn goes on
//                       with Continue, whose re-asked question keeps the item's id (matched by call)
//   bounds        → steps and tool calls are counted at each assistant message, before its calls
//                   run; wall time counts only time not spent waiting. Hitting one aborts the turn
//                   and the run ends `failed` with the reason
//   the turn's end → `done`, `denied` (something was refused), or `failed` (the model's error,
//                    after bounded retries with back-off when it failed before any tool ran)
// `settled` resolves at the first pause or at the end; `ended` at the end only.
import { randomUUID } from 'node:crypto';
import type { ChatEvent } from '../../../shared/chat.ts';
import type { InboxAnswer, InboxItem, ScheduleConfig, ScheduleLimits, ScheduleRun } from '../../../shared/schedules.ts';
import type { ApprovalDecision } from '../../../shared/tools.ts';
import type { McpInteractionAnswer } from '../../../shared/mcp.ts';
import type { ChatSession, TurnOutcome } from '../chat/chat-session.ts';
import { processIdentity } from './process-identity.ts';

export interface RunPorts {
  /** Contract: writes the record (the run store); may throw a FileError. */
  save(run: ScheduleRun): void;
  /** Contract: the run waits on `item` (each time it is asked: after a restart too); never throws. */
  paused(run: ScheduleRun, item: InboxItem): void;
  /** Contract: tell the user (a desktop notification): once per question, and when the run failed; never throws. */
  notify(run: ScheduleRun, item?: InboxItem): void;
  now(): number;
}

/** The model's failures worth another try later (llm/types.ts LlmErrorKind). */
const RETRYABLE = new Set(['llm.network', 'llm.server', 'llm.rate-limit']);

export const newRunId = (): string => `run-${randomUUID().replace(/-/g, '').slice(0, 12)}`;
const newItemId = (): string => `q-${randomUUID().replace(/-/g, '').slice(0, 8)}`;

export function nobodyThereReason(schedule: string): string {
  return `Nobody was there to answer: the schedule "${schedule}" runs unattended and refuses what needs an answer (on-ask deny). Do without this call, or say what the user should allow.`;
}

export class RunDriver {
  readonly run: ScheduleRun;
  readonly settled: Promise<ScheduleRun>;
  readonly ended: Promise<ScheduleRun>;
  readonly #session: ChatSession;
  readonly #config: ScheduleConfig;
  readonly #limits: ScheduleLimits;
  readonly #ports: RunPorts;
  /** Inbox id → the live request id in this process (a restart asks again under a new one). */
  readonly #live = new Map<string, { requestId: string; mcp: boolean }>();
  /** Answers given before the question was asked again (a resume in a new process). */
  readonly #early = new Map<string, InboxAnswer>();
  #settle!: (run: ScheduleRun) => void;
  #end!: (run: ScheduleRun) => void;
  #stopReason: string | undefined;
  #off: (() => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Running (not waiting) time used so far, and since when the clock runs. */
  #usedMs = 0;
  #runningSince: number | undefined;

  constructor(session: ChatSession, config: ScheduleConfig, limits: ScheduleLimits, ports: RunPorts, run: ScheduleRun) {
    this.#session = session;
    this.#config = config;
    this.#limits = limits;
    this.#ports = ports;
    this.run = run;
    this.settled = new Promise((resolve) => (this.#settle = resolve));
    this.ended = new Promise((resolve) => (this.#end = resolve));
  }

  /** Sends the prompt as a new branch of the schedule's chat, labelled with the run's time. */
  start(label: string): void {
    this.#attach();
    const sent = this.#session.send(this.#config.prompt, { prompt: label, parentId: null });
    if (!sent.ok) return this.#finish('failed', sent.error.message);
    void sent.done.then((outcome) => this.#turnEnded(outcome));
  }

  /** Attaches to a run left by a stopped process: its interrupted turn goes on (its calls are asked again first). */
  resume(answers: Map<string, InboxAnswer> = new Map()): void {
    for (const [id, answer] of answers) this.#early.set(id, answer);
    this.#attach();
    if (!this.#session.interruption()) return this.#finish('failed', 'Its chat has no turn left to go on with (it was continued or changed by hand).');
    Object.assign(this.run, processIdentity());
    this.run.status = this.run.waitingOn.length ? 'waiting' : 'running';
    this.#save();
    const sent = this.#session.continueTurn();
    if (!sent.ok) return this.#finish('failed', sent.error.message);
    void sent.done.then((outcome) => this.#turnEnded(outcome));
  }

  /** Ends the run before it starts (it cannot run: `reason` says why). */
  fail(reason: string): void {
    this.#finish('failed', reason);
  }

  /** Answers one of its questions; false when it is not this run's (or already answered). */
  answer(itemId: string, answer: InboxAnswer): boolean {
    if (!this.run.waitingOn.some((item) => item.id === itemId)) return false;
    const live = this.#live.get(itemId);
    if (!live) {
      this.#early.set(itemId, answer); // asked again soon (resume): answered then
      return true;
    }
    return live.mcp ? this.#session.answerMcpInteraction(live.requestId, mcpAnswer(answer)) : this.#session.answerApproval(live.requestId, approvalDecision(answer));
  }

  /** Stops listening (the process stops): the record stays as it is, the chat keeps the question. */
  detach(): void {
    this.#off?.();
    this.#off = undefined;
    this.#pauseClock();
  }

  #attach(): void {
    this.#off = this.#session.onEvent((event) => this.#onEvent(event));
    this.#runClock();
  }

  #onEvent(event: ChatEvent): void {
    switch (event.type) {
      case 'session.message':
        if (event.message.role === 'assistant') this.#countStep(event.message.toolCalls?.length ?? 0);
        return;
      case 'approval.requested': {
        const { request } = event;
        const kind = request.type === 'result' ? 'result-approval' : 'approval';
        return this.#asked({ kind, callId: request.callId, toolName: request.toolName, args: request.args, ...(request.note ? { message: request.note } : {}) }, request.id, false);
      }
      case 'mcp.interaction.requested': {
        const { request } = event;
        const message = 'message' in request ? request.message : 'The server asks the model to answer.';
        return this.#asked({ kind: 'elicitation', callId: request.callId ?? '', toolName: request.server, message }, request.id, true);
      }
      case 'approval.resolved':
      case 'mcp.interaction.resolved':
        return this.#answered(event.requestId, event.type === 'approval.resolved' ? event.decision !== null : event.answer !== null);
      default:
    }
  }

  #asked(what: Pick<InboxItem, 'kind' | 'callId' | 'toolName' | 'args' | 'message'>, requestId: string, mcp: boolean): void {
    if ((this.#config.onAsk ?? 'pause') === 'deny') {
      this.run.refused += 1;
      this.#save();
      const reason = nobodyThereReason(this.#config.name);
      if (mcp) this.#session.answerMcpInteraction(requestId, { action: 'decline' });
      else this.#session.answerApproval(requestId, { decision: 'reject', reason });
      return;
    }
    // The same call asked again after a restart keeps its Inbox id (and an answer given meanwhile).
    let item = this.run.waitingOn.find((waiting) => waiting.callId === what.callId && what.callId !== '' && !this.#live.has(waiting.id));
    if (!item) {
      item = { id: newItemId(), runId: this.run.id, schedule: this.run.schedule, sessionId: this.run.sessionId, askedAt: this.#ports.now(), ...what };
      this.run.waitingOn.push(item);
    }
    this.#live.set(item.id, { requestId, mcp });
    const early = this.#early.get(item.id);
    if (early) {
      this.#early.delete(item.id);
      this.answer(item.id, early);
      return;
    }
    this.run.status = 'waiting';
    this.#pauseClock();
    // Said once: a question asked again after a restart was already notified (the record keeps when).
    const fresh = item.notifiedAt === undefined;
    if (fresh) item.notifiedAt = this.#ports.now();
    this.#save();
    this.#ports.paused(this.run, item);
    if (fresh) this.#ports.notify(this.run, item);
    this.#settle(this.run);
  }

  #answered(requestId: string, answered: boolean): void {
    const entry = [...this.#live].find(([, live]) => live.requestId === requestId);
    if (!entry || !answered) return; // dropped (the session closes): the question stays in the Inbox
    this.#live.delete(entry[0]);
    this.run.waitingOn = this.run.waitingOn.filter((item) => item.id !== entry[0]);
    if (this.run.waitingOn.length === 0 && this.run.status === 'waiting') {
      this.run.status = 'running';
      this.#runClock();
    }
    this.#save();
  }

  #countStep(calls: number): void {
    this.run.steps += 1;
    this.run.calls += calls;
    if (calls > 0 && this.run.steps >= this.#limits.maxSteps) this.#stop(`it reached the step limit (${this.#limits.maxSteps} model steps; scheduleLimits.maxSteps)`);
    else if (this.run.calls > this.#limits.maxToolCalls) this.#stop(`it asked for more tool calls than the limit (${this.#limits.maxToolCalls}; scheduleLimits.maxToolCalls)`);
    else this.#save();
  }

  #stop(reason: string): void {
    if (this.#stopReason) return;
    this.#stopReason = `Stopped: ${reason}.`;
    this.#session.abort();
  }

  #turnEnded(outcome: TurnOutcome): void {
    if (!this.#off) return; // detached: another process goes on with it
    if (this.#stopReason) return this.#finish('failed', this.#stopReason);
    if (outcome.stopReason === 'stop' || outcome.stopReason === 'length') return this.#finish(this.run.refused > 0 ? 'denied' : 'done', this.run.refused > 0 ? `${this.run.refused} call(s) refused: nobody was there to approve them.` : undefined);
    if (this.#retryModel(outcome)) return;
    this.#finish('failed', outcome.error?.message ?? `The turn ended: ${outcome.stopReason}.`);
  }

  /**
   * A model that failed for a passing reason (network, 5xx, rate limit) before any tool ran is
   * asked again from the run's prompt after a back-off (doubling), a bounded number of times. After
   * a tool ran the run fails instead: asking again would run its calls again.
   */
  #retryModel(outcome: TurnOutcome): boolean {
    const retries = this.run.retries ?? 0;
    if (!RETRYABLE.has(outcome.error?.name ?? '') || this.run.calls > 0 || retries >= this.#limits.providerRetries) return false;
    this.run.retries = retries + 1;
    this.#save();
    const prompt = this.#session.messages().findLast((m) => m.role === 'user');
    if (!prompt) return false;
    this.#pauseClock();
    const wait = setTimeout(() => {
      if (!this.#off) return;
      this.#runClock();
      const sent = this.#session.regenerate(prompt.id);
      if (!sent.ok) return this.#finish('failed', sent.error.message);
      void sent.done.then((next) => this.#turnEnded(next));
    }, this.#limits.providerRetrySeconds * 1000 * 2 ** retries);
    wait.unref?.();
    return true;
  }

  #finish(status: ScheduleRun['status'], reason?: string): void {
    this.detach();
    clearTimeout(this.#timer);
    this.run.status = status;
    this.run.endedAt = this.#ports.now();
    this.run.waitingOn = [];
    delete this.run.pid;
    delete this.run.pidStart;
    delete this.run.bootId;
    if (reason) this.run.reason = reason;
    this.#save();
    if (status === 'failed') this.#ports.notify(this.run);
    this.#settle(this.run);
    this.#end(this.run);
  }

  #runClock(): void {
    if (this.#runningSince !== undefined) return;
    this.#runningSince = this.#ports.now();
    const left = this.#limits.maxRunSeconds * 1000 - this.#usedMs;
    this.#timer = setTimeout(() => this.#stop(`it ran longer than ${this.#limits.maxRunSeconds} s (scheduleLimits.maxRunSeconds)`), Math.max(0, left));
    this.#timer.unref?.();
  }

  #pauseClock(): void {
    if (this.#runningSince === undefined) return;
    this.#usedMs += this.#ports.now() - this.#runningSince;
    this.#runningSince = undefined;
    clearTimeout(this.#timer);
  }

  #save(): void {
    try {
      this.#ports.save(this.run);
    } catch {
      // A full disk: the run goes on; its record catches up at the next change.
    }
  }
}

function approvalDecision(answer: InboxAnswer): ApprovalDecision {
  return answer.decision === 'approve' ? { decision: 'once' } : { decision: 'reject', ...(answer.reason ? { reason: answer.reason } : {}) };
}

function mcpAnswer(answer: InboxAnswer): McpInteractionAnswer {
  return answer.decision === 'approve' ? { action: 'accept', ...(answer.content ? { content: answer.content } : {}) } : { action: 'decline' };
}
