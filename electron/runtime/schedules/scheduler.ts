// The scheduler: an instance the runtime creates and closes (createRuntime().scheduler()), never
// module state. It runs schedules only while it holds the home's lock (scheduler-lock.ts):
//   service mode (the app, `tooldesk serve`): start() takes the lock or stands by, retrying every
//     STANDBY_MS (so a second instance takes over when the first stops or dies); the owner serves
//     its control endpoint (control-server.ts) for the CLI, goes on with the runs a stopped process
//     left (resume), and sleeps until the next slot or a settings change.
//   one-shot mode (CLI commands when no instance owns the home): runNow / runDue / answer take the
//     lock for the command's duration and return when the run ends or pauses.
// Who may answer a question: anyone through answer() (the Inbox, the CLI via the endpoint); an
// answer in the chat itself resumes the run too (the driver sees the card resolved).
import { statSync } from 'node:fs';
import type { InboxAnswer, InboxItem, ScheduleConfig, ScheduleInfo, ScheduleRun } from '../../../shared/schedules.ts';
import { Emitter, type Disposer } from '../base/emitter.ts';
import type { ChatSession } from '../chat/chat-session.ts';
import type { SessionManager } from '../chat/persistence/session-manager.ts';
import type { SettingsStore } from '../store/settings-store.ts';
import { checkedSchedules, dueSchedules, isBusy, listSchedules } from './due-schedules.ts';
import { RunStore } from './run-store.ts';
import { scheduleLimits, type CheckedSchedule } from './schedule-config.ts';
import { newRunId, RunDriver } from './schedule-run.ts';
import { processAlive, processIdentity } from './process-identity.ts';
import { SchedulerLock } from './scheduler-lock.ts';
import { startControlServer, type ControlServer } from './control-server.ts';

export interface SchedulerClock {
  now(): number;
}

export interface SchedulerDeps {
  home: string;
  settings: SettingsStore;
  sessions(): Promise<SessionManager>;
  /**
   * What the runtime reads to tell a schedule's chat (its tool sessions are unattended) and the
   * folder its tools run in (the run's --cwd; undefined: the working-folder setting); filled here.
   */
  chats: Map<string, string | undefined>;
  clock?: SchedulerClock;
  log?: (message: string) => void;
}

/**
 * What listeners hear: the lists changed; a run paused on a question (each time it is asked, a
 * restart included); something needs the user's attention (a new question, a failure: said once).
 */
export type SchedulerEvent = { type: 'changed' } | { type: 'paused'; run: ScheduleRun; item: InboxItem } | { type: 'notice'; run: ScheduleRun; item?: InboxItem };

export class ScheduleError extends Error {
  override name = 'ScheduleError';
}

const STANDBY_MS = 15_000;
/** The longest sleep: settings written by hand without a watcher still apply within it. */
const MAX_SLEEP_MS = 60_000;

export class Scheduler {
  readonly store: RunStore;
  /** The chats of schedules (unattended: levels only tighten) → the folder of their current run. */
  readonly chats: Map<string, string | undefined>;
  readonly #deps: SchedulerDeps;
  readonly #lock: SchedulerLock;
  readonly #events: Emitter<SchedulerEvent>;
  readonly #drivers = new Map<string, RunDriver>();
  #control: ControlServer | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #service = false;
  #closed = false;
  #offSettings: Disposer | undefined;
  readonly #reported = new Set<string>();
  /** Schedules whose run is being set up (its chat opened) and not yet recorded. */
  readonly #starting = new Set<string>();

  constructor(deps: SchedulerDeps) {
    this.#deps = deps;
    this.chats = deps.chats;
    this.store = new RunStore(deps.home);
    this.#lock = new SchedulerLock(deps.home);
    this.#events = new Emitter({ onListenerError: (error) => deps.log?.(`a scheduler listener failed: ${(error as Error).message}`) });
    for (const state of Object.values(this.store.state())) if (state.sessionId && !this.chats.has(state.sessionId)) this.chats.set(state.sessionId, undefined);
  }

  get owner(): boolean {
    return this.#lock.heldByMe();
  }

  #now(): number {
    return this.#deps.clock?.now() ?? Date.now();
  }

  onEvent(listener: (event: SchedulerEvent) => void): Disposer {
    return this.#events.event(listener);
  }

  checked(): CheckedSchedule[] {
    return checkedSchedules(this.#deps.settings.get(), this.store, this.#now());
  }

  list(): ScheduleInfo[] {
    return listSchedules(this.#deps.settings.get(), this.store, this.#now());
  }

  inbox(): InboxItem[] {
    return this.store.inbox();
  }

  /** Service mode: own the home's schedules now or as soon as the owner goes away. */
  async start(): Promise<void> {
    this.#service = true;
    this.#offSettings = this.#deps.settings.onDidChange(() => this.#wake(0));
    await this.#tick();
  }

  /** Runs `name` once now; resolves when the run ends or pauses. */
  async runNow(name: string, trigger: ScheduleRun['trigger'] = 'manual'): Promise<ScheduleRun> {
    this.#own();
    const schedule = this.checked().find((s) => s.config.name === name);
    if (!schedule) throw new ScheduleError(`no schedule "${name}" (see \`tooldesk schedule list\`)`);
    if (schedule.problem) throw new ScheduleError(`schedule "${name}" cannot run: ${schedule.problem}`);
    if (this.#starting.has(name)) throw new ScheduleError(`schedule "${name}" is starting a run right now`);
    const busy = isBusy(this.store.runs(name), name);
    if (busy) throw new ScheduleError(`schedule "${name}" has a run that is still ${busy.status === 'waiting' ? `waiting for you (\`tooldesk inbox\`: ${busy.waitingOn.map((i) => i.id).join(', ')})` : 'going on'} (${busy.id})`);
    return (await this.#launch(schedule.config, trigger)).settled;
  }

  /** Runs what is due now (each once, late when its slot is long past); resolves when each ended or paused. */
  async runDue(): Promise<ScheduleRun[]> {
    this.#own();
    await this.#resumeLeft();
    const check = dueSchedules(this.checked(), this.store.state(), this.store.runs(), this.#now());
    for (const name of check.skipped) this.store.updateState(name, { coveredUntil: this.#now() });
    const started = await Promise.all(check.due.map((due) => this.#launch(due.schedule.config, 'due', due.slot, due.late)));
    return Promise.all(started.map((driver) => driver.settled));
  }

  /** Answers an Inbox question; resolves when its run ends or pauses again. */
  async answer(itemId: string, answer: InboxAnswer): Promise<ScheduleRun> {
    this.#own();
    const item = this.store.inbox().find((i) => i.id === itemId);
    if (!item) throw new ScheduleError(`no question "${itemId}" in the Inbox (see \`tooldesk inbox\`); it may have been answered already`);
    let driver = this.#drivers.get(item.runId);
    if (!driver) driver = await this.#resume(this.store.run(item.runId)!, new Map([[itemId, answer]]));
    else if (!driver.answer(itemId, answer)) throw new ScheduleError(`question "${itemId}" is no longer waiting`);
    // The answer resumes the run: wait for its end, or for the next question.
    const next = await Promise.race([driver.ended, this.#nextPause(driver, itemId)]);
    return next;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#offSettings?.();
    for (const driver of this.#drivers.values()) driver.detach();
    this.#drivers.clear();
    await this.#control?.close();
    this.#lock.release();
    this.#events.dispose();
  }

  /** One-shot mode takes the lock for the command; refused when a live instance owns the home. */
  #own(): void {
    if (this.#closed) throw new ScheduleError('the scheduler is closed');
    if (this.#lock.heldByMe() || this.#lock.acquire()) return;
    throw new ScheduleError('another Tooldesk process runs the schedules of this home; ask it (the app or `tooldesk serve`), or stop it');
  }

  async #tick(): Promise<void> {
    if (this.#closed) return;
    if (!this.#lock.heldByMe()) {
      if (!this.#lock.acquire()) return this.#wake(STANDBY_MS);
      await this.#becomeOwner();
    }
    const state = this.store.state();
    const checked = this.checked();
    // A broken entry does not run: said once (serve prints it; `schedule list` shows it too).
    for (const { problem } of checked) {
      if (!problem || this.#reported.has(problem)) continue;
      this.#reported.add(problem);
      this.#deps.log?.(`a schedule cannot run: ${problem}`);
    }
    // An entry written by hand has no createdAt: its first `every` slot counts from when it was first seen.
    for (const { config } of checked) if (config.createdAt === undefined && state[config.name]?.firstSeenAt === undefined) this.store.updateState(config.name, { firstSeenAt: this.#now() });
    const check = dueSchedules(checked, this.store.state(), this.store.runs(), this.#now());
    for (const name of check.skipped) this.store.updateState(name, { coveredUntil: this.#now() });
    for (const due of check.due.filter((d) => !this.#starting.has(d.schedule.config.name))) void this.#launch(due.schedule.config, 'timer', due.slot, due.late).catch((error: Error) => this.#deps.log?.(`schedule "${due.schedule.config.name}" could not start: ${error.message}`));
    const wakeAt = check.wakeAt === null ? MAX_SLEEP_MS : Math.min(MAX_SLEEP_MS, check.wakeAt - this.#now());
    this.#wake(wakeAt);
  }

  #wake(ms: number): void {
    if (this.#closed || !this.#service) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#tick().catch((error: Error) => this.#deps.log?.(`the scheduler failed: ${error.message}`)), Math.max(0, ms) + 5);
  }

  async #becomeOwner(): Promise<void> {
    this.#control = await startControlServer({
      run: (name) => this.runNow(name),
      runDue: () => this.runDue(),
      answer: (id, answer) => this.answer(id, answer),
    });
    this.#lock.setEndpoint({ port: this.#control.port, token: this.#control.token });
    this.#deps.log?.(`runs the schedules of this home (pid ${process.pid})`);
    await this.#resumeLeft();
  }

  /** Runs a stopped process left going or waiting: attached again, their turns go on. */
  async #resumeLeft(): Promise<void> {
    for (const run of this.store.runs()) {
      if ((run.status === 'running' || run.status === 'waiting') && !this.#drivers.has(run.id) && !(run.pid !== undefined && run.pid !== process.pid && processAlive({ ...run, pid: run.pid }))) {
        await this.#resume(run, new Map()).catch((error: Error) => this.#deps.log?.(`run ${run.id} could not go on: ${error.message}`));
      }
    }
  }

  async #resume(run: ScheduleRun, answers: Map<string, InboxAnswer>): Promise<RunDriver> {
    const config = this.checked().find((s) => s.config.name === run.schedule)?.config ?? { name: run.schedule, prompt: '', onAsk: 'pause' };
    const sessions = await this.#deps.sessions();
    if (!sessions.exists(run.sessionId)) {
      // Its chat was deleted: the question has nowhere to go on. Ended, so the Inbox and the schedule are free.
      this.store.saveRun({ ...run, status: 'failed', endedAt: this.#now(), waitingOn: [], reason: 'Its chat was deleted while it waited.' });
      throw new ScheduleError(`run ${run.id} of "${run.schedule}" cannot go on: its chat was deleted`);
    }
    const session = sessions.open(run.sessionId);
    // The folder the run started in, even when the schedule's changed since.
    this.chats.set(session.id, run.cwd);
    const driver = this.#driver(session, config, run);
    driver.resume(answers);
    return driver;
  }

  async #launch(config: ScheduleConfig, trigger: ScheduleRun['trigger'], slot?: number, late?: boolean): Promise<RunDriver> {
    const now = this.#now();
    if (slot !== undefined) this.store.updateState(config.name, { coveredUntil: now });
    // Until its record is saved, the run is not "busy" on disk: a second start must see it here.
    this.#starting.add(config.name);
    let session: ChatSession;
    let run: ScheduleRun;
    try {
      session = await this.#chatOf(config);
      run = { id: newRunId(), schedule: config.name, sessionId: session.id, trigger, ...(late ? { late: true } : {}), ...(slot !== undefined ? { slot } : {}), startedAt: now, status: 'running', calls: 0, steps: 0, waitingOn: [], refused: 0, ...(config.cwd ? { cwd: config.cwd } : {}), ...processIdentity() };
      this.store.saveRun(run);
    } finally {
      this.#starting.delete(config.name);
    }
    const driver = this.#driver(session, config, run);
    const missing = missingFolder(config.cwd);
    if (missing) driver.fail(`Its working folder ${config.cwd} ${missing} (schedule.cwd: \`tooldesk schedule add ${config.name} … --cwd DIR\` sets another).`);
    else driver.start(runLabel(now, config, late));
    this.#events.fire({ type: 'changed' });
    return driver;
  }

  #driver(session: ChatSession, config: ScheduleConfig, run: ScheduleRun): RunDriver {
    const driver = new RunDriver(session, config, scheduleLimits(this.#deps.settings.get()), {
      save: (saved) => {
        this.store.saveRun(saved);
        this.#events.fire({ type: 'changed' });
      },
      paused: (paused, item) => this.#events.fire({ type: 'paused', run: paused, item }),
      notify: (noticed, item) => this.#events.fire({ type: 'notice', run: noticed, ...(item ? { item } : {}) }),
      now: () => this.#now(),
    }, run);
    this.#drivers.set(run.id, driver);
    void driver.ended.then(() => {
      this.#drivers.delete(run.id);
      this.#wake(0);
    });
    return driver;
  }

  /** The schedule's own chat (made on its first run), set to the schedule's model, tool set and level. */
  async #chatOf(config: ScheduleConfig): Promise<ChatSession> {
    const sessions = await this.#deps.sessions();
    const known = this.store.state()[config.name]?.sessionId;
    let session: ChatSession;
    if (known && sessions.exists(known)) session = sessions.open(known);
    else {
      session = sessions.create({ title: `Schedule: ${config.name}`, chat: {} });
      this.store.updateState(config.name, { sessionId: session.id });
    }
    this.chats.set(session.id, config.cwd);
    session.setChatSettings({
      ...(config.providerId ? { providerId: config.providerId } : {}),
      ...(config.model ? { model: config.model } : {}),
      ...(config.toolSet ? { toolSet: config.toolSet } : {}),
      ...(config.permissions ? { permissions: config.permissions } : {}),
    });
    return session;
  }

  /**
   * Resolves when the run waits again on questions other than `answered`: a new one, or others
   * that were waiting beside it (parallel calls). Checked at once too: the answer may have been
   * taken in synchronously, before this listens.
   */
  #nextPause(driver: RunDriver, answered: string): Promise<ScheduleRun> {
    const waitsElsewhere = () => driver.run.status === 'waiting' && driver.run.waitingOn.length > 0 && !driver.run.waitingOn.some((item) => item.id === answered);
    return new Promise((resolve) => {
      if (waitsElsewhere()) return resolve(driver.run);
      const off = this.#events.event(() => {
        if (!waitsElsewhere()) return;
        off();
        resolve(driver.run);
      });
      void driver.ended.then(off);
    });
  }
}

/** The run's user message label: its time in the schedule's zone, and "late" for a missed slot. */
export function runLabel(at: number, config: ScheduleConfig, late?: boolean): string {
  const time = new Date(at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', ...(config.timezone ? { timeZone: config.timezone } : {}) });
  return `Scheduled run · ${config.name} · ${time}${late ? ' (late)' : ''}`;
}

/** Why a run cannot work in `folder` (undefined when it can, or has none of its own). */
function missingFolder(folder: string | undefined): string | undefined {
  if (folder === undefined) return undefined;
  try {
    return statSync(folder).isDirectory() ? undefined : 'is not a folder';
  } catch {
    return 'does not exist';
  }
}
