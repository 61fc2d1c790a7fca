// A Runner that serves Python runs (specs with a `python` hint) from a warm fork-server
// ("zygote") instead of starting the interpreter: one zygote per interpreter and sandbox, started
// on first use inside the sandbox a cold run would use, forking a fresh process per call. The
// supervision (secrets, caps, bounds, timeout, abort, group kill) is the cold runner's own
// (runLaunched), so results have the same shape. Anything it cannot serve runs cold, unchanged.
import { existsSync, realpathSync } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import { createRunner, runLaunched, type Launch, type LaunchedProcess } from '../create-runner.ts';
import { nprocLimit } from '../resource-limits.ts';
import { toolWarnings } from '../run-warnings.ts';
import { detectSandbox } from '../sandbox-detect.ts';
import { maskAdditions } from '../sandbox-mask.ts';
import { currentMask, prepareSandboxedCommand, type PreparedCommand } from '../sandbox.ts';
import type { PythonRunHint, RunResult, RunSpec, Runner, RunnerOptions, SandboxSpec } from '../types.ts';
import { boundSpare, discardSpare, readySpare, refillSpare, startInSpare, takeSpare } from './spares.ts';
import { Zygote, type ZygoteRequest } from './zygote.ts';

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
    const spare = await readySpare(zygote);
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
  // The zygote runs with the cold run's interpreter flags (-E -s, -I: see python-flags.ts).
  const flags = describedFlags(hint, spec.args);
  if (!flags) return undefined;
  const toolDir = spec.sandbox?.toolDir ?? spec.cwd;
  if (!existsSync(toolDir)) return undefined;
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

/**
 * The interpreter flags before the hinted command line, when the hint describes the command line
 * the spec would run cold (else undefined: the spec wins, and runs cold).
 */
function describedFlags(hint: PythonRunHint, args: string[]): string[] | undefined {
  const rest = args.slice(args.length - (hint.kind === 'module' ? 4 : 1));
  const flags = args.slice(0, args.length - rest.length);
  if (!flags.every((flag) => /^-[A-Za-z]+$/.test(flag))) return undefined;
  if (hint.kind === 'module') return rest.length === 4 && basename(rest[0]!) === 'run_tool.py' && rest[1] === hint.file && rest[2] === hint.function && rest[3] === hint.marker ? flags : undefined;
  if (hint.kind === 'script') return rest[0] === hint.file ? flags : undefined;
  return rest[0] === '-' ? flags : undefined;
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
  return { sandboxed: prepared.sandboxed, ...(prepared.note ? { note: prepared.note } : {}), ...(toolWarnings(prepared).length ? { warnings: toolWarnings(prepared) } : {}) };
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
    // Secret files that appeared since the zygote's sandbox was made: the call covers them itself.
    const hide = zygote.mask && plan.sandbox ? maskAdditions(zygote.mask, currentMask(plan.sandbox)) : undefined;
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
        ...(hide && (hide.dirs.length || hide.files.length) ? { hide } : {}),
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

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
