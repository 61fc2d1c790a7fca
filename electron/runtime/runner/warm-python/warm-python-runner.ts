// A Runner that serves Python runs (specs with a `python` hint) from a warm fork-server
// ("zygote") instead of starting the interpreter: one zygote per interpreter and sandbox, started
// on first use inside the sandbox a cold run would use, forking a fresh process per call. The
// supervision (secrets, caps, bounds, timeout, abort, group kill) is the cold runner's own
// (runLaunched), so results have the same shape. Anything it cannot serve runs cold, unchanged.
import { randomBytes } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { constants } from 'node:os';
import { basename, isAbsolute } from 'node:path';
import type { Socket } from 'node:net';
import { createRunner, runLaunched, type Launch, type LaunchedProcess } from '../create-runner.ts';
import { signalProcessGroup } from '../kill-process-group.ts';
import { createPidsCgroup, type PidsCgroup } from '../pids-cgroup.ts';
import { nprocLimit } from '../resource-limits.ts';
import { detectSandbox } from '../sandbox-detect.ts';
import { prepareSandboxedCommand, type PreparedCommand } from '../sandbox.ts';
import type { PythonRunHint, RunResult, RunSpec, Runner, RunnerOptions, SandboxSpec } from '../types.ts';
import { childWithInnerPid } from './host-pid.ts';
import { Zygote, type ZygoteRequest } from './zygote.ts';
import { trackGroup, untrackGroup } from '../live-groups.ts';

export interface WarmPythonOptions {
  /** resources/python/zygote.py (it imports run_tool.py beside it); readable inside the sandbox. */
  zygoteScript: string;
  /** A zygote without calls for this long is stopped, ms (default 60 s). */
  idleMs?: number;
  /** Zygotes alive at once (default 8): the least recently used idle one makes room. */
  maxZygotes?: number;
  /**
   * How often a zygote's sandbox is prepared again to see whether it changed (a secret file
   * appeared in the tool's folder and must now be hidden), ms (default 2000).
   */
  recheckMs?: number;
}

interface PoolEntry {
  key: string;
  zygote: Promise<Zygote | { error: string }>;
  /** The sandbox as prepared when last checked, and when. */
  signature: string;
  sandbox: Pick<PreparedCommand, 'sandboxed' | 'note' | 'warnings'>;
  checkedAt: number;
  failedAt?: number;
  idleMs: number;
}

const FAILED_RETRY_MS = 30_000;
const CONNECT_TIMEOUT_MS = 5_000;
const pool = new Map<string, PoolEntry>();
const retired = new Set<Promise<Zygote | { error: string }>>();
let sweeper: NodeJS.Timeout | undefined;


/** Whether this platform can serve warm runs (Linux: fork, /proc, and bubblewrap's namespaces). */
export function warmPythonSupported(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'linux';
}

/** Runs served warm and Python runs that went cold (no zygote, not eligible), since start. */
const counts = { warm: 0, cold: 0 };
export function warmPythonCounts(): { warm: number; cold: number } {
  return { ...counts };
}

export function createWarmPythonRunner(options: RunnerOptions & WarmPythonOptions, cold: Runner = createRunner(options)): Runner {
  return async (spec) => {
    const plan = warmPlan(spec, options);
    if (!plan) {
      if (spec.python) counts.cold++;
      return cold(spec);
    }
    let served: RunResult | undefined;
    try {
      served = await runWarm(spec, plan, options);
    } catch {
      served = undefined;
    }
    if (served) counts.warm++;
    else counts.cold++;
    return served ?? (await cold(spec));
  };
}

/** Stops every zygote (tests, app shutdown). */
export async function stopWarmPython(): Promise<void> {
  const all = [...[...pool.values()].map((e) => e.zygote), ...retired];
  pool.clear();
  retired.clear();
  clearInterval(sweeper);
  sweeper = undefined;
  sweepEveryMs = Infinity;
  await Promise.all(all.map(async (z) => {
    const zygote = await z;
    if (!('error' in zygote)) await zygote.kill();
  }));
}

/**
 * The zygotes alive now, with the pid of the spare each holds ready (a forked process waiting for
 * its call: no tool code has run in it). Tests and the benchmark count them.
 */
export async function warmPythonZygotes(): Promise<Array<{ hostPid: number; busy: number; spares: number[] }>> {
  const out: Array<{ hostPid: number; busy: number; spares: number[] }> = [];
  for (const entry of [...pool.values()]) {
    const zygote = await entry.zygote;
    if ('error' in zygote || zygote.dead) continue;
    const spare = await spares.get(zygote);
    out.push({ hostPid: zygote.hostPid, busy: zygote.busy, spares: spare && !('error' in spare) ? [spare.hostPid] : [] });
  }
  return out;
}

interface WarmPlan {
  hint: PythonRunHint;
  key: string;
  flags: string[];
  toolDir: string;
  /** The zygote's sandbox: the call's, without the per-call bounds (those the call applies itself). */
  sandbox?: SandboxSpec;
}

/** What zygote serves `spec`, or undefined when it must run cold. */
function warmPlan(spec: RunSpec, options: RunnerOptions & WarmPythonOptions): WarmPlan | undefined {
  const hint = spec.python;
  if (!hint || !warmPythonSupported() || !isAbsolute(spec.command) || !existsSync(spec.cwd)) return undefined;
  if (!describesArgs(hint, spec.args)) return undefined;
  const toolDir = spec.sandbox?.toolDir ?? spec.cwd;
  if (!existsSync(toolDir)) return undefined;
  const flags = hint.kind === 'code' ? ['-u'] : [];
  let sandbox: SandboxSpec | undefined;
  if (spec.sandbox) {
    const { maxProcesses: _p, maxMemoryBytes: _m, ...box } = spec.sandbox;
    sandbox = box;
  }
  // Calls running at once on one zygote share its PID namespace, where one can read another's
  // environment in /proc (a process it started holds the secrets it was given): only calls
  // entitled to the same secrets may share one.
  const secrets = [...new Set(spec.secrets ?? [])].sort();
  const key = JSON.stringify([spec.command, flags, toolDir, sandbox ?? null, spec.env ?? {}, options.baseEnv ?? null, secrets]);
  return { hint, key, flags, toolDir, ...(sandbox ? { sandbox } : {}) };
}

/** The hint must describe the command line the spec would run cold (else the spec wins). */
function describesArgs(hint: PythonRunHint, args: string[]): boolean {
  if (hint.kind === 'module') return args.length === 4 && basename(args[0]!) === 'run_tool.py' && args[1] === hint.file && args[2] === hint.function && args[3] === hint.marker;
  if (hint.kind === 'script') return args.length === 1 && args[0] === hint.file;
  return args.length === 2 && args[0] === '-u' && args[1] === '-';
}

function prepareZygoteSandbox(spec: RunSpec, plan: WarmPlan): { signature: string; prepared: PreparedCommand } {
  const prepared = prepareSandboxedCommand({ command: spec.command, args: plan.flags, cwd: plan.toolDir, timeoutMs: 0, ...(plan.sandbox ? { sandbox: plan.sandbox } : {}) });
  prepared.cleanup?.();
  return { signature: JSON.stringify([prepared.command, prepared.args, prepared.sandboxed, prepared.refuse ?? false]), prepared };
}

/** The zygote for `plan`, started or restarted as needed; undefined: run cold. */
async function acquire(spec: RunSpec, plan: WarmPlan, options: RunnerOptions & WarmPythonOptions): Promise<{ zygote: Zygote; entry: PoolEntry } | undefined> {
  const now = Date.now();
  let entry = pool.get(plan.key);
  if (entry && now - entry.checkedAt > (options.recheckMs ?? 2000)) {
    const { signature, prepared } = prepareZygoteSandbox(spec, plan);
    if (signature !== entry.signature) {
      retire(entry);
      entry = undefined;
    } else {
      entry.checkedAt = now;
      entry.sandbox = sandboxInfo(prepared);
    }
  }
  if (entry) {
    const current = await entry.zygote;
    if ('error' in current) {
      if (now - (entry.failedAt ?? 0) < FAILED_RETRY_MS) return undefined;
      pool.delete(plan.key);
      entry = undefined;
    } else if (current.dead) {
      pool.delete(plan.key);
      entry = undefined;
    } else {
      pool.delete(plan.key);
      pool.set(plan.key, entry);
      return { zygote: current, entry };
    }
  }
  const { signature, prepared } = prepareZygoteSandbox(spec, plan);
  // A sandbox that must refuse, or macOS's: the cold path says so exactly as it always does.
  if (prepared.refuse || (prepared.sandboxed && detectSandbox().kind !== 'bwrap')) return undefined;
  const fresh: PoolEntry = {
    key: plan.key,
    signature,
    sandbox: sandboxInfo(prepared),
    checkedAt: now,
    idleMs: options.idleMs ?? 60_000,
    zygote: Zygote.start({ command: spec.command, flags: plan.flags, script: options.zygoteScript, privateTmp: prepared.sandboxed, cwd: plan.toolDir, ...(spec.env ? { env: spec.env } : {}), ...(plan.sandbox ? { sandbox: plan.sandbox } : {}) }, options),
  };
  pool.set(plan.key, fresh);
  makeRoom(options.maxZygotes ?? 8);
  startSweeper(fresh.idleMs);
  const started = await fresh.zygote;
  if ('error' in started) {
    fresh.failedAt = Date.now();
    return undefined;
  }
  return { zygote: started, entry: fresh };
}

function sandboxInfo(prepared: PreparedCommand): PoolEntry['sandbox'] {
  return { sandboxed: prepared.sandboxed, ...(prepared.note ? { note: prepared.note } : {}), ...(prepared.warnings?.length ? { warnings: prepared.warnings } : {}) };
}

function retire(entry: PoolEntry): void {
  if (pool.get(entry.key) === entry) pool.delete(entry.key);
  retired.add(entry.zygote);
}

/** The pool's order is least recently used first: retire from the front (busy ones stop once their calls end). */
function makeRoom(max: number): void {
  for (const entry of [...pool.values()].slice(0, Math.max(0, pool.size - max))) retire(entry);
}

let sweepEveryMs = Infinity;
function startSweeper(idleMs: number): void {
  const every = Math.max(100, Math.min(idleMs / 4, 10_000));
  if (sweeper && every >= sweepEveryMs) return;
  clearInterval(sweeper);
  sweepEveryMs = every;
  sweeper = setInterval(() => void sweep(), every);
  sweeper.unref();
}

async function sweep(): Promise<void> {
  const now = Date.now();
  for (const entry of [...pool.values()]) {
    const zygote = await entry.zygote;
    if ('error' in zygote) continue;
    if (zygote.dead || (zygote.busy === 0 && now - zygote.lastUsed > entry.idleMs)) retire(entry);
  }
  for (const pending of [...retired]) {
    const zygote = await pending;
    if ('error' in zygote || zygote.dead) retired.delete(pending);
    else if (zygote.busy === 0) {
      retired.delete(pending);
      await zygote.kill();
    }
  }
  if (pool.size === 0 && retired.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = undefined;
    sweepEveryMs = Infinity;
  }
}

/** Runs `spec` on its zygote; undefined when the call could not be started there (run it cold). */
async function runWarm(spec: RunSpec, plan: WarmPlan, options: RunnerOptions & WarmPythonOptions): Promise<RunResult | undefined> {
  const acquired = await acquire(spec, plan, options);
  if (!acquired) return undefined;
  const { zygote, entry } = acquired;
  const limits = { maxProcesses: spec.sandbox?.maxProcesses, maxMemoryBytes: spec.sandbox?.maxMemoryBytes };
  const bounded = !!limits.maxProcesses && limits.maxProcesses > 0;
  const spare = await takeSpare(zygote, bounded ? limits.maxProcesses : undefined);
  if ('error' in spare) return undefined;
  let launchedInSpare = false;
  try {
    // The bounds the cold path's `prlimit` and pids cgroup apply, here applied by the call itself.
    const detection = detectSandbox();
    const uid = process.getuid?.() ?? -1;
    const nproc = detection.prlimit ? nprocLimit(limits, uid) : undefined;
    const dataLimit = detection.prlimit && limits.maxMemoryBytes && limits.maxMemoryBytes > 0 ? Math.floor(limits.maxMemoryBytes) : undefined;
    const cgroup = bounded ? await boundSpare(spare, limits.maxProcesses!) : spare.cgroup?.setMax(undefined);
    if (typeof cgroup === 'string') return undefined;
    const prepared: PreparedCommand = {
      command: spec.command,
      args: spec.args,
      ...entry.sandbox,
      ...(entry.sandbox.warnings ? { warnings: [...entry.sandbox.warnings] } : {}),
      limits,
      ...(bounded
        ? {
            watch: {
              maxProcesses: limits.maxProcesses!,
              ...(cgroup ? { pidsEventsFile: `${cgroup.dir}/pids.events` } : {}),
              // Inside bwrap the kernel counts RLIMIT_NPROC per namespace: only the tree count is exact there.
              ...(nproc !== undefined && !zygote.sandboxed ? { userLimit: { uid, tasks: nproc } } : {}),
            },
          }
        : {}),
    };
    let notStarted: string | undefined;
    const launch: Launch = async (env) => {
      const request: ZygoteRequest = {
        ...hintFields(plan.hint),
        env,
        cwd: real(spec.cwd),
        fallbackCwd: real(plan.toolDir),
        channel: !!spec.resultChannel,
        pwd: zygote.sandboxed,
        ...(dataLimit ? { dataLimit } : {}),
        ...(nproc ? { nproc } : {}),
      };
      launchedInSpare = true;
      const launched = await startInSpare(zygote, spare, request);
      if ('error' in launched) {
        notStarted = launched.error;
        return notLaunched(launched.error);
      }
      return launched;
    };
    // Three-layer code came on stdin in a cold run; the call gets it in its request, and an empty stdin.
    const runSpec: RunSpec = plan.hint.kind === 'code' ? { ...spec, stdin: '' } : spec;
    const result = await runLaunched(runSpec, prepared, options, launch);
    return notStarted === undefined ? result : undefined;
  } finally {
    // A run that ended before its launch (a missing secret…) lets its spare go.
    if (!launchedInSpare) discardSpare(spare);
    // The next spare is made once this call is over. Made during the call, its fork would queue
    // before the call's go in the zygote, and its cgroup join (a writer of the kernel's cgroup
    // threadgroup lock, waiting out an RCU grace period) would hold up the call's own fork.
    refillSpare(zygote, bounded ? limits.maxProcesses : undefined);
  }
}

function hintFields(hint: PythonRunHint): Pick<ZygoteRequest, 'kind' | 'file' | 'function' | 'marker' | 'code'> {
  if (hint.kind === 'module') return { kind: 'module', file: hint.file, function: hint.function, marker: hint.marker };
  if (hint.kind === 'script') return { kind: 'script', file: hint.file };
  return { kind: 'code', code: hint.code };
}

function notLaunched(why: string): LaunchedProcess {
  return { pid: undefined, onExit: () => {}, outcome: Promise.resolve({ originalMessage: why }) };
}

/**
 * A call's process forked ahead of its call: its streams connected, its group tracked, its pids
 * cgroup joined. Joining a cgroup waits for an RCU grace period (5-30 ms when joins are not
 * back to back), so each zygote keeps one spare ready and a call only hands it its request.
 */
interface Spare {
  id: number;
  hostPid: number;
  sockets: Map<string, Socket>;
  cgroup: PidsCgroup | undefined;
  exit: Promise<{ code: number | null; signal: number | null } | null>;
  /** Given its call (its streams are then the call's). */
  used: boolean;
  ended: boolean;
}

const spares = new WeakMap<Zygote, Promise<Spare | { error: string }>>();

/** The zygote's ready spare, or one made now when none is (calls at once each need one). */
async function takeSpare(zygote: Zygote, maxProcesses: number | undefined): Promise<Spare | { error: string }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const taken = spares.get(zygote) ?? prepareSpare(zygote, maxProcesses);
    spares.delete(zygote);
    const spare = await taken;
    if ('error' in spare || !spare.ended) return spare;
  }
  return { error: 'the prepared call processes ended before their call' };
}

const lastReplaced = new WeakMap<Zygote, number>();

/** Prepares the zygote's next spare, unless one is ready or on its way. */
function refillSpare(zygote: Zygote, maxProcesses: number | undefined): void {
  if (spares.has(zygote) || zygote.dead) return;
  const pending = prepareSpare(zygote, maxProcesses);
  spares.set(zygote, pending);
  // A spare that ends unused (killed, out of memory) is replaced, at most once a second per
  // zygote: a call finds one ready, and a spare that cannot live costs one fork a second.
  void pending.then((spare) => {
    if ('error' in spare) return;
    void spare.exit.then(() => {
      if (spare.used || spares.get(zygote) !== pending) return;
      spares.delete(zygote);
      const wait = Math.max(0, (lastReplaced.get(zygote) ?? 0) + 1000 - Date.now());
      setTimeout(() => {
        lastReplaced.set(zygote, Date.now());
        refillSpare(zygote, maxProcesses);
      }, wait).unref();
    });
  });
}

/**
 * Forks a spare on `zygote`. Until its call's request reaches it nothing of the tool has run, so
 * any failure here (and a spare that is never used) costs nothing but a process.
 */
async function prepareSpare(zygote: Zygote, maxProcesses: number | undefined): Promise<Spare | { error: string }> {
  // The zygote's pipes do not keep the app alive: while a spare is being made, this does.
  const keepAlive = setInterval(() => {}, 1 << 30);
  try {
    return await forkSpare(zygote, maxProcesses);
  } finally {
    clearInterval(keepAlive);
  }
}

async function forkSpare(zygote: Zygote, maxProcesses: number | undefined): Promise<Spare | { error: string }> {
  const token = randomBytes(16).toString('hex');
  const wait = zygote.server.expect(token, ['0', '1', '2', '3']);
  const forked = zygote.prepare(token);
  const pid = await forked.pid;
  if ('error' in pid) {
    wait.cancel();
    return pid;
  }
  const hostPid = childWithInnerPid(zygote.hostPid, pid.pid);
  const cgroup = hostPid !== undefined ? createPidsCgroup(maxProcesses) : undefined;
  const joined = hostPid !== undefined && cgroup ? joinCgroup(cgroup, hostPid) : Promise.resolve(undefined);
  const timer = setTimeout(() => wait.cancel(), CONNECT_TIMEOUT_MS);
  const sockets = await Promise.race([wait.sockets, forked.exit.then(() => new Map<string, Socket>())]);
  clearTimeout(timer);
  const notJoined = await joined;
  const abandon = (why: string) => {
    wait.cancel();
    for (const socket of sockets.values()) socket.destroy();
    if (hostPid !== undefined) signalProcessGroup(hostPid, 'SIGKILL');
    cgroup?.dispose();
    return { error: why };
  };
  if (hostPid === undefined) return abandon('the call process was not found in /proc');
  if (sockets.size !== 4) return abandon('the call process did not connect its streams');
  if (notJoined) return abandon(notJoined);
  trackGroup(hostPid);
  // A spare waiting for its call does not keep the app alive (its call will, once it runs).
  for (const socket of sockets.values()) socket.unref();
  const spare: Spare = { id: forked.id, hostPid, sockets, cgroup, exit: forked.exit, used: false, ended: false };
  void forked.exit.then(() => {
    spare.ended = true;
    untrackGroup(hostPid);
    // A call's streams close by themselves once read to the end; an unused spare's are dropped.
    if (!spare.used) for (const socket of sockets.values()) socket.destroy();
    spare.cgroup?.dispose();
  });
  return spare;
}

function joinCgroup(cgroup: PidsCgroup, pid: number): Promise<string | undefined> {
  return writeFile(`${cgroup.dir}/cgroup.procs`, String(pid)).then(() => undefined, (error: Error) => `the call could not join its pids cgroup: ${error.message}`);
}

/** The spare's cgroup bound to the call's process count (joined now if the spare had none). */
async function boundSpare(spare: Spare, maxProcesses: number): Promise<PidsCgroup | undefined | string> {
  if (spare.cgroup) return spare.cgroup.setMax(maxProcesses);
  const cgroup = createPidsCgroup(maxProcesses);
  if (!cgroup) return undefined;
  const notJoined = await joinCgroup(cgroup, spare.hostPid);
  if (notJoined) {
    cgroup.dispose();
    return notJoined;
  }
  // Disposed with the spare's end (prepareSpare).
  spare.cgroup = cgroup;
  return cgroup;
}

function discardSpare(spare: Spare): void {
  signalProcessGroup(spare.hostPid, 'SIGKILL');
}

/** Hands the call to its spare: from here on the tool runs (or, if the spare had ended, nothing did). */
async function startInSpare(zygote: Zygote, spare: Spare, request: ZygoteRequest): Promise<LaunchedProcess | { error: string }> {
  const { hostPid, sockets } = spare;
  // Marked used first: its streams are the call's from the go on, even while the answer travels.
  spare.used = !spare.ended;
  if (!spare.used || !(await zygote.go(spare.id, request))) {
    spare.used = false;
    for (const socket of sockets.values()) socket.destroy();
    return { error: 'the prepared call process had ended before its call' };
  }
  for (const socket of sockets.values()) socket.ref();
  if (!request.channel) sockets.get('3')?.destroy();
  // What the tool writes to its stdin is dropped (as into a pipe's write end nobody reads); reading
  // lets the socket see the end and close.
  const stdin = sockets.get('0')!;
  stdin.resume();
  const exitListeners: Array<(code: number | null, signal: string | null) => void> = [];
  const exit = spare.exit.then((status) => {
    const mapped = exitStatus(status, zygote.sandboxed);
    for (const listener of exitListeners) listener(mapped.code, mapped.signal);
    return mapped;
  });
  const closed = (socket: Socket | undefined) => new Promise<void>((resolve) => (!socket || socket.destroyed ? resolve() : socket.once('close', () => resolve())));
  const out = [sockets.get('1'), sockets.get('2'), request.channel ? sockets.get('3') : undefined];
  return {
    pid: hostPid,
    stdin,
    stdout: out[0],
    stderr: out[1],
    channel: out[2],
    onExit: (listener) => exitListeners.push(listener),
    outcome: Promise.all([exit, ...out.map(closed)]).then(([status]) => ({
      ...(status.code !== null ? { exitCode: status.code } : {}),
      ...(status.signal !== null ? { signal: status.signal } : {}),
    })),
  };
}

const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, n]) => [n as number, name]));

/**
 * A call's status as a cold run reports it. Sandboxed, bwrap turns its command's death by a
 * signal into exit code 128+N; only a kill of the run itself (TERM or KILL, which hit bwrap)
 * shows as a signal. Outside a sandbox the signal is the tool's own.
 */
function exitStatus(status: { code: number | null; signal: number | null } | null, sandboxed: boolean): { code: number | null; signal: string | null } {
  if (!status) return { code: null, signal: 'SIGKILL' };
  if (status.signal === null) return { code: status.code, signal: null };
  const name = SIGNAL_NAMES.get(status.signal) ?? `SIG${status.signal}`;
  if (sandboxed && name !== 'SIGTERM' && name !== 'SIGKILL') return { code: 128 + status.signal, signal: null };
  return { code: null, signal: name };
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
