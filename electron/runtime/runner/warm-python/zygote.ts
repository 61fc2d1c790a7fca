// One fork-server process: a Python started once (inside the sandbox its calls would use) that
// forks a fresh process per call. This file speaks its protocol (resources/python/zygote.py):
// JSON lines in on its stdin, events out on its stdout, streams over the call server's socket.
import { createInterface } from 'node:readline';
import { spawnManaged, type ManagedProcess, type ManagedSpec } from '../spawn-managed.ts';
import type { RunnerOptions } from '../types.ts';
import { CallServer } from './call-server.ts';
import { descendantWithInnerPid } from './host-pid.ts';
import type { PreloadOutcome, PreloadRequest } from './preload-set.ts';

const READY_TIMEOUT_MS = 10_000;
/**
 * How long the zygote may take to answer a spare's fork or a call's hand-over. It answers in
 * well under 50 ms; one that does not (stopped, stuck) is killed, and the call runs cold.
 */
export const ANSWER_TIMEOUT_MS = 1000;

/** What a call's process runs (see zygote.py's run_call). */
export interface ZygoteRequest {
  kind: 'module' | 'script' | 'code';
  file?: string;
  /** A script's arguments (sys.argv after its path). */
  args?: string[];
  function?: string;
  marker?: string;
  code?: string;
  env: Record<string, string>;
  cwd: string;
  fallbackCwd: string;
  channel: boolean;
  /** Set PWD to the working folder, as bubblewrap does for a sandboxed cold run. */
  pwd: boolean;
  dataLimit?: number;
  nproc?: number;
  /** What the call covers itself: found to hide since the zygote's sandbox was made. */
  hide?: { dirs: string[]; files: string[] };
}

export interface ZygoteSpare {
  id: number;
  /** The call's process (its supervisor) as the zygote sees it, or why it could not fork. */
  pid: Promise<{ pid: number } | { error: string }>;
  /** Its exit status (signal by number), once the zygote reaped it; null when the zygote died first. */
  exit: Promise<{ code: number | null; signal: number | null } | null>;
}

export class Zygote {
  /** Calls running (spares waiting for a call do not count). */
  busy = 0;
  lastUsed = Date.now();
  dead = false;
  /** Why the zygote was killed for not answering, if it was. */
  stalled: string | undefined;
  /** What it imported before forking (warm dependency imports), and what it left out and why. */
  preload: PreloadOutcome = { preloaded: [], leftOut: [] };
  private nextId = 1;
  private readonly calls = new Map<number, { pid: (v: { pid: number } | { error: string }) => void; exit: (v: { code: number | null; signal: number | null } | null) => void }>();
  private readonly spareExits = new Map<number, ZygoteSpare['exit']>();
  private readonly acks = new Map<number, (started: boolean) => void>();

  private constructor(
    readonly process: ManagedProcess,
    readonly server: CallServer,
    /** The zygote's pid on this machine (the process its calls are children of). */
    readonly hostPid: number,
  ) {}

  /**
   * Starts the zygote and waits for its `ready`. Contract: never throws; `{ error }` names why
   * it could not start (the caller runs the call cold instead).
   */
  static async start(spec: Omit<ManagedSpec, 'args'> & { flags: string[]; script: string; privateTmp: boolean; preload?: PreloadRequest }, options: RunnerOptions): Promise<Zygote | { error: string }> {
    const server = await CallServer.start();
    if ('error' in server) return server;
    // Each call mounts its own /proc, /dev/shm and newly found masks (resources/python/call_mounts.py).
    const sandbox = spec.sandbox && { ...spec.sandbox, readOnlyPaths: [...(spec.sandbox.readOnlyPaths ?? []), server.dir], mountsPerCall: true };
    const managed = await spawnManaged({ command: spec.command, args: [...spec.flags, spec.script, server.path, ...(spec.privateTmp ? ['--private-tmp'] : []), ...(spec.preload ? ['--preload'] : [])], cwd: spec.cwd, ...(spec.env ? { env: spec.env } : {}), ...(sandbox ? { sandbox } : {}), maxStderrBytes: 16 * 1024 }, options);
    if ('error' in managed) {
      server.close();
      return managed;
    }
    // The preload request is the first line in; nothing else is sent before `ready`.
    if (spec.preload) managed.stdin.write(`${JSON.stringify(spec.preload)}\n`);
    const lines = createInterface({ input: managed.stdout, crlfDelay: Infinity });
    const first = await Promise.race([
      new Promise<string | undefined>((resolve) => {
        lines.once('line', resolve);
        lines.once('close', () => resolve(undefined));
      }),
      // Preloading probes for at most 2 × its bound + 3 s (preload.py's budget_s), then imports.
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), READY_TIMEOUT_MS + (spec.preload ? 3 * (2 * spec.preload.maxMs + 3000) : 0)).unref()),
    ]);
    let ready: ({ ready?: boolean; pid?: number } & Partial<PreloadOutcome>) | undefined;
    try {
      ready = first ? (JSON.parse(first) as typeof ready) : undefined;
    } catch {
      ready = undefined;
    }
    const hostPid = ready?.ready && typeof ready.pid === 'number' ? descendantWithInnerPid(managed.pid, ready.pid) : undefined;
    if (hostPid === undefined) {
      await managed.kill();
      server.close();
      const said = managed.stderrTail().trim().split('\n').slice(-3).join(' ');
      return { error: `the Python fork-server did not start${said ? `: ${said}` : ''}` };
    }
    // An idle zygote must not keep the app alive (a CLI command ends when its work does).
    managed.unref();
    server.unref();
    const zygote = new Zygote(managed, server, hostPid);
    zygote.preload = preloadOutcome(ready!);
    lines.on('line', (line) => zygote.onEvent(line));
    void managed.exited.then(() => zygote.onDeath());
    return zygote;
  }

  get sandboxed(): boolean {
    return this.process.sandboxed;
  }

  /** What the zygote's own sandbox hides (as the disk was when it started). */
  get mask(): { dirs: string[]; files: string[] } | undefined {
    return this.process.mask;
  }

  /**
   * Forks a call's process ahead of its call: it connects its streams to `server` with `token`
   * and waits for `go`. It does not keep the app alive until then.
   */
  prepare(token: string): ZygoteSpare {
    const id = this.nextId++;
    let pid!: ZygoteSpare['pid'] extends Promise<infer T> ? (v: T) => void : never;
    let exit!: ZygoteSpare['exit'] extends Promise<infer T> ? (v: T) => void : never;
    const spare: ZygoteSpare = { id, pid: new Promise((r) => (pid = r)), exit: new Promise((r) => (exit = r)) };
    if (this.dead) {
      pid({ error: 'the Python fork-server has exited' });
      exit(null);
      return spare;
    }
    this.calls.set(id, { pid, exit });
    this.spareExits.set(id, spare.exit);
    this.process.stdin.write(`${JSON.stringify({ id, token })}\n`);
    this.answerWithin(spare.pid, `fork a process for call ${id}`);
    return spare;
  }

  /**
   * Runs `request` in spare `id`. Resolves true once the spare has it; false when that spare had
   * ended (then nothing of the call ran).
   */
  go(id: number, request: ZygoteRequest): Promise<boolean> {
    const exit = this.spareExits.get(id);
    if (!exit || this.dead) return Promise.resolve(false);
    this.spareExits.delete(id);
    const acked = new Promise<boolean>((resolve) => this.acks.set(id, resolve));
    this.busy++;
    this.lastUsed = Date.now();
    // The zygote's pipes do not keep the app alive (see start): a call in flight does.
    const keepAlive = setInterval(() => {}, 1 << 30);
    void exit.then(() => {
      clearInterval(keepAlive);
      this.busy--;
      this.lastUsed = Date.now();
    });
    this.process.stdin.write(`${JSON.stringify({ ...request, go: id })}\n`);
    this.answerWithin(acked, `hand call ${id} over`);
    return acked;
  }

  /** A zygote that does not answer within ANSWER_TIMEOUT_MS is killed (its pending answers fail). */
  private answerWithin(answer: Promise<unknown>, what: string): void {
    let answered = false;
    const timer = setTimeout(() => {
      if (answered || this.dead) return;
      this.stalled = `the Python fork-server did not ${what} within ${ANSWER_TIMEOUT_MS} ms`;
      void this.kill();
    }, ANSWER_TIMEOUT_MS);
    timer.unref();
    void answer.then(() => {
      answered = true;
      clearTimeout(timer);
    });
  }

  async kill(): Promise<void> {
    this.dead = true;
    // Whatever waits for an answer gets "not started" now, not when the process is reaped.
    this.onDeath();
    await this.process.kill();
    this.server.close();
  }

  private onEvent(line: string): void {
    let event: { id?: number; pid?: number; code?: number | null; signal?: number | null; error?: string; started?: boolean; gone?: boolean };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      return;
    }
    if (event.id !== undefined && (event.started || event.gone)) {
      this.acks.get(event.id)?.(event.started === true);
      this.acks.delete(event.id);
      return;
    }
    const call = event.id === undefined ? undefined : this.calls.get(event.id);
    if (!call) return;
    if (event.error !== undefined) {
      call.pid({ error: event.error });
      call.exit(null);
      this.calls.delete(event.id!);
      this.spareExits.delete(event.id!);
    } else if (event.pid !== undefined) {
      call.pid({ pid: event.pid });
    } else {
      call.exit({ code: event.code ?? null, signal: event.signal ?? null });
      this.calls.delete(event.id!);
      this.spareExits.delete(event.id!);
    }
  }

  /** A zygote that died takes its calls' processes with it (its sandbox ends): they end here. */
  private onDeath(): void {
    this.dead = true;
    for (const call of this.calls.values()) {
      call.pid({ error: 'the Python fork-server has exited' });
      call.exit(null);
    }
    this.calls.clear();
    this.spareExits.clear();
    for (const ack of this.acks.values()) ack(false);
    this.acks.clear();
    this.server.close();
  }
}

/** The ready event's account of the preloads, kept to its shape (the zygote is ours, but outlives calls). */
function preloadOutcome(ready: Partial<PreloadOutcome>): PreloadOutcome {
  const names = Array.isArray(ready.preloaded) ? ready.preloaded.filter((n): n is string => typeof n === 'string') : [];
  const left = Array.isArray(ready.leftOut) ? ready.leftOut.filter((l) => typeof l?.name === 'string' && typeof l?.why === 'string') : [];
  return { preloaded: names, leftOut: left.map((l) => ({ name: l.name, why: l.why })) };
}
