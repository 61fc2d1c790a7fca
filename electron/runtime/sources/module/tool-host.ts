// The app's side of one module tool host (host/main.ts): starts it inside the sandbox
// (host-boot.ts), sends requests, checks every answer (route-host-message.ts), runs the `exec`
// calls its modules make through the app's runner, and restarts it when it dies. Nothing here
// ever imports or evaluates user code.
import { currentCallTrace, traceToolHost, withCallTrace } from '../../tools/call-trace.ts';
import type { SessionEvent, ToolContext, ToolRunResult } from '../../tools/types.ts';
import type { SourceContext, SourceEntry } from '../types.ts';
import { bootHost, type HostStart } from './host-boot.ts';
import { hostMaskIsStale, retireHost } from './host-mask.ts';
import { bindExec, type ExecBinding } from './exec-binding.ts';
import { runModuleExec } from './module-exec.ts';
import type { LoadRecord } from './load-record.ts';

export type { LoadRecord } from './load-record.ts';
export type { LoadOutcome } from './host-incarnation.ts';
import { describeForged, HostForgeries } from './host-forgeries.ts';
import { holdApp, killHost, releaseApp, sendToHost, stopHost, type CallOutput, type Failure, type Incarnation, type LoadAnswer, type LoadOutcome } from './host-incarnation.ts';
import { routeHostMessage } from './route-host-message.ts';
import { transpileAhead } from './transpile-ahead.ts';
import { validDiagnostic, validToolInfo } from './host-messages.ts';
import type { ExecReply, ExecRequest, FromHost } from './host-protocol.ts';

/** A module's factory may take this long; the whole load of one entry gets a little more. */
export const FACTORY_TIMEOUT_MS = 10_000;
export const LOAD_TIMEOUT_MS = FACTORY_TIMEOUT_MS + 5_000;
/** The bound on each module loaded again after its host hung, until the one that hangs is found. */
const QUICK_RELOAD_MS = 5_000;
/** How long an exec() a call did not wait for may outlive the call's answer. */
export const EXEC_GRACE_MS = 200;
/** After a cancel, how long the tool has to return before its host is killed. */
export const CANCEL_GRACE_MS = 2_000;
const SESSION_TIMEOUT_MS = FACTORY_TIMEOUT_MS;
const LOAD_TIMED_OUT = `The module did not finish loading within ${LOAD_TIMEOUT_MS / 1000} s (an endless loop or a wait that never ends at load time?), so its tool host was stopped`;

export interface HostConfig extends HostStart {
  /** Called when the host ended because no listed tool needs it (the pool forgets it). */
  onUnused?: (host: ToolHost) => void;
}

let nextLoadId = 1;

export class ToolHost {
  private current: Promise<Incarnation | Failure> | undefined;
  /** Settles once the current start has its process (undefined: it failed): it boots from then on. */
  private spawned: Promise<Incarnation | undefined> = Promise.resolve(undefined);
  private nextId = 1;
  private readonly loads = new Map<number, LoadRecord>();
  private readonly forgeries = new HostForgeries();
  private readonly retiring = new Set<Incarnation>(); // replaced, still answering (retireIfMaskGrew)
  /** Each host start, for tests and the restart figures. */
  starts = 0;

  private readonly contexts = new WeakSet<SourceContext>();

  constructor(private readonly config: HostConfig) {
    this.contexts.add(config.ctx);
  }

  /**
   * The newest context with the same settings (the app builds one per reload): its runner runs
   * the modules' exec() from now on.
   */
  useContext(ctx: SourceContext): void {
    this.config.ctx = ctx;
    this.contexts.add(ctx);
  }

  servesContext(ctx: SourceContext): boolean {
    return this.contexts.has(ctx);
  }

  /** The pid of the running host (the sandbox's, under bwrap), for tests. */
  async pid(): Promise<number | null> {
    const inc = await this.current;
    return inc && !('failure' in inc) && !inc.dead ? inc.pid : null;
  }

  /**
   * Loads entries in order; never throws: a module that breaks its host yields a diagnostic, and
   * the entries after it load in a restarted host. All requests are sent at once (the host works
   * through them one by one), so the app's answers overlap the host's loading.
   */
  async loadAll(items: Array<{ entry: SourceEntry; label: string; toolDir: string }>): Promise<LoadOutcome[]> {
    const records = items.map(({ entry, label, toolDir }): LoadRecord => ({ loadId: nextLoadId++, entry, label, toolDir, secrets: new Map() }));
    for (const record of records) this.loads.set(record.loadId, record);
    // The host boots (or is already up) while the app transpiles what it will ask for.
    let starting: Promise<Incarnation | Failure> | undefined = this.incarnation();
    const booting = await this.spawned;
    for (const record of records) this.transpileAhead(record);
    // A host still booting gets the requests at once: they wait in its stdin and it starts on them
    // as soon as it is up, without a round trip through the app (a boot that fails settles them).
    let early = booting && !booting.dead ? { inc: booting, waiting: this.sendLoads(booting, records, false) } : undefined;
    const answers: Array<LoadAnswer | Failure> = [];
    // The host answers in batches, so when it dies (or hangs) the unsent answers go with it and
    // the first unanswered module need not be the one to blame. The modules still unanswered then
    // load again carefully (each answer sent before the next load starts): the one that breaks
    // that host is the one to blame.
    let careful = false;
    // After a hang: the modules that loaded unanswered before the one that hung took under 50 ms
    // there (see host/main.ts), so in the careful round a short bound finds the one that hangs.
    let quick = false;
    while (answers.length < records.length) {
      const inc = await (starting ?? this.incarnation());
      starting = undefined;
      if ('failure' in inc) {
        while (answers.length < records.length) answers.push(inc);
        break;
      }
      const waiting = early?.inc === inc ? early.waiting : this.sendLoads(inc, records.slice(answers.length), careful);
      early = undefined;
      holdApp(inc);
      for (const answer of waiting) {
        // The host loads one entry at a time: the bound starts when the one before it answered.
        let timer: NodeJS.Timeout | undefined;
        const entry = records[answers.length]!.entry;
        const bounded = await Promise.race([
          answer,
          new Promise<Failure>((resolve) => {
            timer = setTimeout(() => {
              void killHost(inc, LOAD_TIMED_OUT);
              resolve({ failure: 'timeout' });
            }, quick ? QUICK_RELOAD_MS : LOAD_TIMEOUT_MS);
          }),
        ]);
        clearTimeout(timer);
        if ('failure' in bounded) {
          if (!careful) {
            // Once this host has ended, the unanswered modules load again, carefully.
            await answer;
            careful = true;
            quick = bounded.failure === 'timeout';
            break;
          }
          quick = false;
          // This entry took the host down (or hung it): it alone fails, the rest go to a new host.
          const failure = await answer;
          answers.push('failure' in failure ? failure : { failure: `the tool host stopped while loading ${entry.path}` });
          break;
        }
        answers.push(bounded);
      }
      releaseApp(inc);
    }
    return records.map((record, i) => this.outcome(record, answers[i]!));
  }

  private outcome(record: LoadRecord, answer: LoadAnswer | Failure): LoadOutcome {
    const forged = this.forgeries.take(record.entry.path);
    if ('failure' in answer) {
      this.loads.delete(record.loadId);
      return { record, tools: [], diagnostics: [...(forged ? [forged] : []), { severity: 'error', file: record.entry.path, message: answer.failure, hint: 'The module was stopped; the other module tools still load. Fix its load-time code (top-level statements and the factory).', code: 'module-host-failed' }] };
    }
    const tools = answer.tools.filter(validToolInfo);
    for (const tool of tools) record.secrets.set(tool.key, new Set((Array.isArray(tool.secrets) ? tool.secrets : []).filter((s) => typeof s === 'string')));
    if (tools.length === 0) this.release(record.loadId);
    return { record, tools, diagnostics: [...(forged ? [forged] : []), ...answer.diagnostics.filter(validDiagnostic)] };
  }

  /** Forgets a load (its tools are gone): the host drops its module instances. */
  release(loadId: number): void {
    if (!this.loads.delete(loadId)) return;
    void this.current?.then((inc) => {
      if (!('failure' in inc) && !inc.dead && inc.loaded.delete(loadId)) sendToHost(inc, { t: 'release', loadId });
    });
  }

  /** Ends the host when no listed tool needs it any more (it starts again if one does). */
  async stopIfUnused(): Promise<void> {
    if (this.loads.size > 0) return;
    const inc = await this.current;
    if (this.loads.size > 0) return;
    if (inc && !('failure' in inc)) {
      if (inc.pending.size > 0 || inc.execs.size > 0) return;
      await stopHost(inc);
    }
    if (this.loads.size === 0) this.config.onUnused?.(this);
  }

  async execute(record: LoadRecord, key: string, args: Record<string, unknown>, toolCtx: ToolContext): Promise<ToolRunResult> {
    if (toolCtx.signal.aborted) return { status: 'ERROR', error: 'cancelled before it started' };
    await this.retireIfMaskGrew();
    const inc = await this.ensureLoaded(record);
    if ('failure' in inc) return { status: 'ERROR', error: inc.failure };
    const id = this.nextId++;
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const output: CallOutput = { stdout: '', stderr: '', cut: {} };
    const answer = await new Promise<ToolRunResult | Failure>((resolve) => {
      inc.pending.set(id, { kind: 'execute', file: record.entry.path, resolve, onUpdate: toolCtx.onUpdate, output, trace: currentCallTrace(), loadId: record.loadId, key, callId: toolCtx.callId });
      holdApp(inc);
      const onAbort = () => {
        cancelled = true;
        sendToHost(inc, { t: 'cancel', id });
        // A tool that ignores its signal (or loops forever) is stopped with its host.
        killTimer = setTimeout(() => void killHost(inc, `the tool did not stop within ${CANCEL_GRACE_MS / 1000} s after it was cancelled, so its tool host was stopped (it restarts on the next call)`), CANCEL_GRACE_MS);
      };
      toolCtx.signal.addEventListener('abort', onAbort, { once: true });
      sendToHost(inc, { t: 'execute', id, loadId: record.loadId, key, args, callId: toolCtx.callId, sessionId: toolCtx.sessionId });
    }).finally(() => {
      clearTimeout(killTimer);
      inc.pending.delete(id);
      this.endExecsOf(inc, id);
      releaseApp(inc);
    });
    traceToolHost({ pid: inc.process.pid, ...inc.launch, sandboxed: inc.process.sandboxed, stdout: output.stdout, stderr: output.stderr, ...(output.cut.stdout || output.cut.stderr ? { cut: output.cut } : {}) });
    const forged = this.forgeries.take(record.entry.path);
    if ('failure' in answer) return { status: 'ERROR', error: cancelled ? `cancelled: ${answer.failure}` : answer.failure, ...(forged ? { warnings: [forged.message] } : {}) };
    return forged ? { ...answer, warnings: [...(answer.warnings ?? []), forged.message] } : answer;
  }

  async session(record: LoadRecord, key: string, event: SessionEvent): Promise<void> {
    const inc = await this.ensureLoaded(record);
    if ('failure' in inc) throw new Error(inc.failure);
    const id = this.nextId++;
    let timer: NodeJS.Timeout | undefined;
    const answer = await new Promise<{ error?: string } | Failure>((resolve) => {
      inc.pending.set(id, { kind: 'session', file: record.entry.path, resolve });
      holdApp(inc);
      timer = setTimeout(() => resolve({ failure: `the session hook did not finish within ${SESSION_TIMEOUT_MS / 1000} s` }), SESSION_TIMEOUT_MS);
      sendToHost(inc, { t: 'session', id, loadId: record.loadId, key, event });
    }).finally(() => {
      clearTimeout(timer);
      inc.pending.delete(id);
      releaseApp(inc);
    });
    if ('failure' in answer) throw new Error(answer.failure);
    if (answer.error) throw new Error(answer.error);
  }

  /** Ends the host (and anything it started), and one being replaced. */
  async shutdown(): Promise<void> {
    const inc = await this.current;
    await Promise.all([...this.retiring].map((old) => stopHost(old)));
    if (inc && !('failure' in inc)) await stopHost(inc);
  }

  /** A host whose mask went stale (host-mask.ts) finishes what it runs, then stops; a new one serves. */
  private async retireIfMaskGrew(): Promise<void> {
    const live = this.current;
    const inc = live && (await live);
    if (!inc || 'failure' in inc || inc.dead || this.current !== live || !hostMaskIsStale(inc, this.config.sandbox)) return;
    this.current = undefined;
    retireHost(inc, this.retiring);
    releaseApp(inc);
  }

  private async ensureLoaded(record: LoadRecord): Promise<Incarnation | Failure> {
    const inc = await this.incarnation();
    if ('failure' in inc || inc.loaded.has(record.loadId)) return inc;
    // The host restarted since this tool was listed: load its module again first.
    const again = await this.loadInto(record);
    if ('failure' in again) return { failure: `its module could not be loaded again after its tool host restarted: ${again.failure}` };
    const now = await this.incarnation();
    return 'failure' in now || now.loaded.has(record.loadId) ? now : { failure: 'its tool host stopped again while reloading the module' };
  }

  /** One load with its own bound (a tool's module loaded again after a restart). */
  private async loadInto(record: LoadRecord): Promise<LoadAnswer | Failure> {
    const inc = await this.incarnation();
    if ('failure' in inc) return inc;
    this.transpileAhead(record);
    const answer = this.requestLoad(inc, record);
    holdApp(inc);
    const timer = setTimeout(() => {
      void killHost(inc, LOAD_TIMED_OUT);
    }, LOAD_TIMEOUT_MS);
    const result = await answer;
    clearTimeout(timer);
    releaseApp(inc);
    return result;
  }

  /** The app fills the transpile cache from the sources it reads itself (the host cannot write it). */
  private transpileAhead(record: LoadRecord): void {
    transpileAhead(this.config.transformCacheDir, record.entry, record.toolDir === record.entry.path, this.config.ctx.toolSourceMaxBytes);
  }

  /** One write for all of them: each write wakes the host. */
  private sendLoads(inc: Incarnation, records: LoadRecord[], careful: boolean): Array<Promise<LoadAnswer | Failure>> {
    inc.process.stdin.cork();
    const waiting = records.map((record) => this.requestLoad(inc, record, careful));
    inc.process.stdin.uncork();
    return waiting;
  }

  /** Sends one `load`; settles with the host's answer, or a failure when the host ends first. */
  private requestLoad(inc: Incarnation, record: LoadRecord, careful = true): Promise<LoadAnswer | Failure> {
    const id = this.nextId++;
    return new Promise<LoadAnswer | Failure>((resolve) => {
      inc.pending.set(id, { kind: 'load', file: record.entry.path, resolve });
      sendToHost(inc, { t: 'load', id, loadId: record.loadId, entry: record.entry, workingDir: this.config.ctx.workingDir, factoryTimeoutMs: FACTORY_TIMEOUT_MS, ...(this.config.ctx.toolSourceMaxBytes ? { maxSourceBytes: this.config.ctx.toolSourceMaxBytes } : {}), ...(careful ? { careful } : {}) });
    }).then((answer) => {
      inc.pending.delete(id);
      if (!('failure' in answer)) inc.loaded.add(record.loadId);
      return answer;
    });
  }

  private incarnation(): Promise<Incarnation | Failure> {
    const live = this.current;
    if (live) {
      return live.then((inc) => {
        if (!('failure' in inc) && !inc.dead) return inc;
        if (this.current === live) this.current = undefined;
        return this.incarnation();
      });
    }
    let spawned!: (inc?: Incarnation) => void;
    this.spawned = new Promise((resolve) => (spawned = resolve));
    const started = this.start(spawned);
    this.current = started;
    // A host that could not start is tried again on the next request, not remembered as broken.
    void started.then((inc) => {
      if ('failure' in inc && this.current === started) this.current = undefined;
    });
    return started;
  }

  private async start(spawned: (inc?: Incarnation) => void): Promise<Incarnation | Failure> {
    try {
      this.starts++;
      const inc = await bootHost(this.config, {
        spawned,
        message: (inc, message) => routeHostMessage(inc, message, { forged: (m, why) => this.forged(inc, m, why), exec: (m) => this.onExec(inc, m) }),
        kill: (inc, why) => void killHost(inc, why),
      });
      if (!('failure' in inc)) releaseApp(inc);
      return inc;
    } finally {
      spawned();
    }
  }

  /** A module asks to run a process: only for a call of its own that is still open. */
  private onExec(inc: Incarnation, message: Extract<FromHost, { t: 'exec' }>): void {
    const bound = bindExec(message, inc.pending, this.loads);
    if ('refused' in bound) {
      if (bound.forged) return this.forged(inc, message, bound.refused);
      return sendToHost(inc, { t: 'exec-reply', id: message.id, reply: { stdout: '', stderr: bound.refused, code: 127, killed: false, warnings: [] } });
    }
    // Run inside the trace of the call that asked, so its Inspect panel lists the process.
    const run = () => this.runExec(inc, message.id, message.request, bound);
    void (bound.call.trace ? withCallTrace(bound.call.trace, run) : run());
  }

  /** A module's exec(): run by the app's runner, sandboxed as its tool, with its call's tool's secrets only. */
  private async runExec(inc: Incarnation, id: number, request: ExecRequest, { executeId, record, secrets }: Extract<ExecBinding, { record: unknown }>): Promise<void> {
    const controller = new AbortController();
    inc.execs.set(id, { controller, executeId });
    holdApp(inc);
    const reply: ExecReply = inc.loaded.has(record.loadId)
      ? await runModuleExec(this.config.ctx, record, secrets, request, controller.signal)
      : { stdout: '', stderr: 'exec: this module is not loaded any more', code: 127, killed: false, warnings: [] };
    inc.execs.delete(id);
    releaseApp(inc);
    sendToHost(inc, { t: 'exec-reply', id, reply });
  }

  /**
   * A call's processes end with the call: an exec() it started and did not wait for is stopped
   * once the call has answered (after EXEC_GRACE_MS, for one that was about to end by itself).
   */
  private endExecsOf(inc: Incarnation, executeId: number): void {
    const left = [...inc.execs.values()].filter((exec) => exec.executeId === executeId);
    if (left.length > 0) setTimeout(() => left.forEach((exec) => exec.controller.abort()), EXEC_GRACE_MS);
  }

  /** A message no open request asked for: ignored, and charged to the modules now running. */
  private forged(inc: Incarnation, message: { t?: unknown; id?: unknown }, why: string): void {
    this.forgeries.charge([...inc.pending.values()].map((p) => p.file), describeForged(message, why));
  }
}
