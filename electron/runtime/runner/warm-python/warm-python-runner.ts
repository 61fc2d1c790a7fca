// A Runner that serves Python runs (specs with a `python` hint) from a warm fork-server
// ("zygote") instead of starting the interpreter: one zygote per interpreter and sandbox, started
// on first use inside the sandbox a cold run would use, forking a fresh process per call. The
// supervision (secrets, caps, bounds, timeout, abort, group kill) is the cold runner's own
// (runLaunched), so results have the same shape. Anything it cannot serve runs cold, unchanged.
import { existsSync, realpathSync } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import { createRunner, runLaunched, type Launch, type LaunchedProcess } from '../create-runner.ts';
import { nprocLimit } from '../resource-limits.ts';
import { detectSandbox } from '../sandbox-detect.ts';
import { maskAdditions } from '../sandbox-mask.ts';
import { currentMask, prepareSandboxedCommand, type PreparedCommand } from '../sandbox.ts';
import type { PythonRunHint, RunResult, RunSpec, Runner, RunnerOptions, SandboxSpec } from '../types.ts';
import { preloadRequest, type PreloadOptions, type PreloadRequest } from './preload-set.ts';
import { boundSpare, discardSpare, refillSpare, startInSpare, takeSpare } from './spares.ts';
import type { WarmPythonPool, ZygoteRecipe } from './warm-python-pool.ts';
import { Zygote, type ZygoteRequest } from './zygote.ts';

export interface WarmPythonOptions {
  /** Whose zygotes serve the runs (the runtime's; a test's own). */
  pool: WarmPythonPool;
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
  /** Warm dependency imports: the modules a folder's tools import, imported once per fork-server. */
  preload?: PreloadOptions;
}

/** Whether this platform can serve warm runs (Linux: fork, /proc, and bubblewrap's namespaces). */
export function warmPythonSupported(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'linux';
}

/** Python runs served by `options.pool`'s zygotes where they can be; everything else by `cold`. */
export function createWarmPythonRunner(options: RunnerOptions & WarmPythonOptions, cold: Runner = createRunner(options)): Runner {
  const { pool } = options;
  return async (spec) => {
    const plan = warmPlan(spec, options);
    if (!plan) {
      if (spec.python) pool.count('cold');
      return cold(spec);
    }
    let served: RunResult | undefined;
    try {
      served = await runWarm(spec, plan, options);
    } catch {
      served = undefined;
    }
    pool.count(served ? 'warm' : 'cold');
    return served ?? (await cold(spec));
  };
}

interface WarmPlan {
  hint: PythonRunHint;
  key: string;
  flags: string[];
  toolDir: string;
  /** The zygote's sandbox: the call's, without the per-call bounds (those the call applies itself). */
  sandbox?: SandboxSpec;
  preload?: PreloadRequest;
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
  // What it preloads is part of what it is: a folder whose files changed gets a fresh one.
  const preload = preloadRequest(spec, options.preload);
  const key = JSON.stringify([spec.command, flags, toolDir, sandbox ?? null, spec.env ?? {}, options.baseEnv ?? null, secrets, preload ?? null]);
  return { hint, key, flags, toolDir, ...(sandbox ? { sandbox } : {}), ...(preload ? { preload } : {}) };
}

/**
 * The interpreter flags before the hinted command line, when the hint describes the command line
 * the spec would run cold (else undefined: the spec wins, and runs cold).
 */
function describedFlags(hint: PythonRunHint, args: string[]): string[] | undefined {
  const scriptArgs = hint.kind === 'script' ? (hint.args ?? []) : [];
  const rest = args.slice(args.length - (hint.kind === 'module' ? 4 : 1 + scriptArgs.length));
  const flags = args.slice(0, args.length - rest.length);
  if (!flags.every((flag) => /^-[A-Za-z]+$/.test(flag))) return undefined;
  if (hint.kind === 'module') return rest.length === 4 && basename(rest[0]!) === 'run_tool.py' && rest[1] === hint.file && rest[2] === hint.function && rest[3] === hint.marker ? flags : undefined;
  if (hint.kind === 'script') return rest.length === 1 + scriptArgs.length && rest[0] === hint.file && scriptArgs.every((arg, i) => rest[i + 1] === arg) ? flags : undefined;
  return rest[0] === '-' ? flags : undefined;
}

function prepareZygoteSandbox(spec: RunSpec, plan: WarmPlan): { signature: string; prepared: PreparedCommand } {
  const prepared = prepareSandboxedCommand({ command: spec.command, args: plan.flags, cwd: plan.toolDir, timeoutMs: 0, ...(plan.sandbox ? { sandbox: plan.sandbox } : {}) });
  prepared.cleanup?.();
  return { signature: JSON.stringify([prepared.command, prepared.args, prepared.sandboxed, prepared.refuse ?? false]), prepared };
}

/** Runs `spec` on its zygote; undefined when the call could not be started there (run it cold). */
async function runWarm(spec: RunSpec, plan: WarmPlan, options: RunnerOptions & WarmPythonOptions): Promise<RunResult | undefined> {
  const lease = await options.pool.acquire(zygoteRecipe(spec, plan, options), {
    idleMs: options.idleMs ?? 60_000,
    maxZygotes: options.maxZygotes ?? 8,
    recheckMs: options.recheckMs ?? 2000,
  });
  if (!lease) return undefined;
  const { zygote, sandbox: zygoteSandbox } = lease;
  const limits = { maxProcesses: spec.sandbox?.maxProcesses, maxMemoryBytes: spec.sandbox?.maxMemoryBytes };
  const bounded = !!limits.maxProcesses && limits.maxProcesses > 0;
  const spare = await takeSpare(zygote, bounded ? limits.maxProcesses : undefined);
  if ('error' in spare) {
    lease.release();
    return undefined;
  }
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
      ...zygoteSandbox,
      ...(zygoteSandbox.warnings ? { warnings: [...zygoteSandbox.warnings] } : {}),
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
    if (notStarted !== undefined) return undefined;
    return zygote.preload.preloaded.length ? { ...result, preloaded: [...zygote.preload.preloaded] } : result;
  } finally {
    // A run that ended before its launch (a missing secret…) lets its spare go.
    if (!launchedInSpare) discardSpare(spare);
    // The next spare is made once this call is over. Made during the call, its fork would queue
    // before the call's go in the zygote, and its cgroup join (a writer of the kernel's cgroup
    // threadgroup lock, waiting out an RCU grace period) would hold up the call's own fork.
    refillSpare(zygote, bounded ? limits.maxProcesses : undefined);
    lease.release();
  }
}

/** How the pool makes (and re-checks) the zygote that serves `plan`. */
function zygoteRecipe(spec: RunSpec, plan: WarmPlan, options: RunnerOptions & WarmPythonOptions): ZygoteRecipe {
  return {
    key: plan.key,
    prepare: () => prepareZygoteSandbox(spec, plan),
    start: (prepared) =>
      // A sandbox that must refuse, or macOS's: the cold path says so exactly as it always does.
      prepared.refuse || (prepared.sandboxed && detectSandbox().kind !== 'bwrap')
        ? undefined
        : Zygote.start({ command: spec.command, flags: plan.flags, script: options.zygoteScript, privateTmp: prepared.sandboxed, cwd: plan.toolDir, ...(spec.env ? { env: spec.env } : {}), ...(plan.sandbox ? { sandbox: plan.sandbox } : {}), ...(plan.preload ? { preload: plan.preload } : {}) }, options),
  };
}

function hintFields(hint: PythonRunHint): Pick<ZygoteRequest, 'kind' | 'file' | 'args' | 'function' | 'marker' | 'code'> {
  if (hint.kind === 'module') return { kind: 'module', file: hint.file, function: hint.function, marker: hint.marker };
  if (hint.kind === 'script') return { kind: 'script', file: hint.file, ...(hint.args?.length ? { args: hint.args } : {}) };
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
