// Runs one tool process: own process group, minimal environment, byte-capped streaming output,
// timeout/abort that take down the whole group, and a promise that always settles.
import type { Readable, Writable } from 'node:stream';
import { DEFAULT_LIMITS } from '../../../shared/settings.ts';
import { CappedOutput } from './capped-output.ts';
import { killProcessGroup, signalProcessGroup } from './kill-process-group.ts';
import { minimalEnv } from './minimal-env.ts';
import { watchProcessTree, type ProcessWatchdog } from './process-watchdog.ts';
import { createRedactor, createStreamRedactor } from './redact-secrets.ts';
import { explainLimitFailure, FORK_REFUSED } from './resource-limits.ts';
import { prepareSandboxedCommand, type PreparedCommand } from './sandbox.ts';
import { missingSecretsMessage } from './secret-resolver.ts';
import type { RunResult, RunSpec, Runner, RunnerOptions } from './types.ts';
import { trackGroup, untrackGroup } from './live-groups.ts';
import { toolWarnings } from './run-warnings.ts';

export const DEFAULT_OUTPUT_CAP_BYTES = DEFAULT_LIMITS.outputCapBytes;
const DEFAULT_KILL_GRACE_MS = 500;
const DEFAULT_DRAIN_MS = 200;
/** The result channel carries one JSON envelope; it may be larger than what a tool prints. */
const CHANNEL_CAP_FACTOR = 8;


export function createRunner(options: RunnerOptions = {}): Runner {
  return async (spec) => {
    const started = Date.now();
    try {
      return await runOnce(spec, options, started);
    } catch (error) {
      return failedToStart(`runner failure: ${(error as Error).message}`, started);
    }
  };
}

function failedToStart(spawnError: string, started: number, extra: Partial<RunResult> = {}): RunResult {
  return {
    exitCode: null, signal: null, stdout: '', stderr: '', timedOut: false, aborted: false,
    stdoutTruncated: false, stderrTruncated: false, durationMs: Date.now() - started,
    sandboxed: false, spawnError, ...extra,
  };
}

async function runOnce(spec: RunSpec, options: RunnerOptions, started: number): Promise<RunResult> {
  const prepared = prepareSandboxedCommand(spec);
  try {
    return await runPrepared(spec, prepared, options, started, (env) => launchWithExeca(spec, prepared, env));
  } finally {
    prepared.cleanup?.();
  }
}

/** A started tool process as the supervision below sees it: execa's child, or a warm Python call. */
export interface LaunchedProcess {
  /** The leader of the run's own process group (a pid of this machine); undefined: it did not start. */
  pid: number | undefined;
  stdin?: Writable | null;
  stdout?: Readable | null;
  stderr?: Readable | null;
  /** fd 3, when `resultChannel`. */
  channel?: Readable | null;
  /** Called once, when the process exits. */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  /** Settles once the process has exited and its output streams are closed (or destroyed). */
  outcome: Promise<LaunchOutcome>;
}

export interface LaunchOutcome {
  exitCode?: number;
  signal?: string;
  /** Why it did not start (ENOENT…). */
  code?: string;
  originalMessage?: string;
  shortMessage?: string;
}

/** Starts the run's process with its final environment. Contract: never throws. */
export type Launch = (env: Record<string, string>) => Promise<LaunchedProcess>;

// execa (about 100 files) loads with the first process a run starts, not with every command.
let loadExeca: Promise<typeof import('execa')> | undefined;

async function launchWithExeca(spec: RunSpec, prepared: PreparedCommand, env: Record<string, string>): Promise<LaunchedProcess> {
  const { execa } = await (loadExeca ??= import('execa'));
  const child = execa(prepared.command, prepared.args, {
    cwd: spec.cwd,
    env,
    extendEnv: false,
    detached: process.platform !== 'win32',
    cleanup: false,
    buffer: false,
    reject: false,
    windowsHide: true,
    stdio: spec.resultChannel ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
  });
  return {
    pid: child.pid,
    stdin: child.stdin,
    stdout: child.stdout,
    stderr: child.stderr,
    channel: child.stdio[3] as Readable | undefined,
    onExit: (listener) => child.on('exit', listener),
    outcome: child.then((outcome) => outcome as LaunchOutcome),
  };
}

/**
 * Runs a process started by `launch` under the same supervision as every run (secrets, caps,
 * bounds, timeout, abort, group kill), for a runner that starts processes its own way.
 * Contract: never throws; calls `prepared.cleanup` once the run is over.
 */
export async function runLaunched(spec: RunSpec, prepared: PreparedCommand, options: RunnerOptions, launch: Launch): Promise<RunResult> {
  const started = Date.now();
  try {
    return await runPrepared(spec, prepared, options, started, launch);
  } catch (error) {
    return failedToStart(`runner failure: ${(error as Error).message}`, started);
  } finally {
    prepared.cleanup?.();
  }
}

async function runPrepared(spec: RunSpec, prepared: PreparedCommand, options: RunnerOptions, started: number, launch: Launch): Promise<RunResult> {
  const sandboxInfo = {
    sandboxed: prepared.sandboxed,
    ...(prepared.note ? { sandboxNote: prepared.note } : {}),
    ...(toolWarnings(prepared).length ? { warnings: toolWarnings(prepared) } : {}),
  };
  if (prepared.refuse) return failedToStart(`refused to run unsandboxed: ${prepared.note ?? 'no sandbox available'}`, started, sandboxInfo);

  let secretEnv: Record<string, string> = {};
  if (spec.secrets && spec.secrets.length > 0) {
    if (!options.resolveSecrets) return failedToStart(`secrets requested (${spec.secrets.join(', ')}) but no secret store is available`, started, sandboxInfo);
    const resolved = await options.resolveSecrets(spec.secrets);
    if (resolved.missing.length > 0) return failedToStart(missingSecretsMessage(resolved.missing, resolved.noKeychain), started, sandboxInfo);
    secretEnv = resolved.values;
  }
  // Secret values reach only this process (env, key endpoint) and never leave it in any output.
  const redact = createRedactor(secretEnv);
  const keyGrant = options.keyEndpoint?.register(spec.secrets ?? [], (name) => secretEnv[name]);
  if (spec.signal?.aborted) {
    keyGrant?.dispose();
    const { spawnError: _none, ...notStarted } = failedToStart('', started, { ...sandboxInfo, aborted: true });
    return notStarted;
  }

  const cap = spec.maxOutputBytes ?? options.maxOutputBytes ?? DEFAULT_OUTPUT_CAP_BYTES;
  const killOnCap = spec.killOnCap ?? true;
  const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const drainMs = options.drainMs ?? DEFAULT_DRAIN_MS;
  const posix = process.platform !== 'win32';

  const child = await launch(minimalEnv(options.baseEnv ?? process.env, { ...spec.env, ...prepared.env, ...keyGrant?.env, ...secretEnv }));
  const pid = child.pid;
  if (pid !== undefined) {
    if (posix) trackGroup(pid);
    options.onSpawn?.(spec);
  }

  let timedOut = false;
  let aborted = false;
  let killed = false;
  let exited = false;
  /** Set once the run is over and its group killed: a late grace-period SIGKILL must not hit a reused group id. */
  let finished = false;
  let exitCode: number | null = null;
  let exitSignal: string | null = null;
  let capAction: RunResult['capAction'];

  const kill = () => {
    if (killed || pid === undefined) return;
    killed = true;
    killProcessGroup(pid, graceMs, () => finished);
  };
  const onCap = () => {
    if (capAction) return;
    capAction = killOnCap ? 'killed' : 'finished';
    if (killOnCap) kill();
  };
  const liveOut = spec.onStdout ? createStreamRedactor(secretEnv, spec.onStdout) : undefined;
  const liveErr = spec.onStderr ? createStreamRedactor(secretEnv, spec.onStderr) : undefined;
  const stdout = new CappedOutput(cap, liveOut && ((text) => liveOut.push(text)));
  const stderr = new CappedOutput(cap, liveErr && ((text) => liveErr.push(text)));
  const channel = spec.resultChannel ? new CappedOutput(cap * CHANNEL_CAP_FACTOR) : undefined;
  const streams = [child.stdout, child.stderr, child.channel].filter((s): s is Readable => !!s && 'on' in s);
  // A fork bomb is stopped at once (SIGKILL: it would only fork more during a grace period).
  let limitNote: string | undefined;
  const stopAtBound = (max: number, why: string) => {
    if (limitNote || pid === undefined) return;
    limitNote = `stopped: the tool tried to run more than ${max} processes at once (${why}); tool runs are limited to ${max} (Settings → Limits).`;
    killed = true;
    signalProcessGroup(pid, 'SIGKILL');
  };
  const bound = prepared.watch?.maxProcesses;
  // The kernel refused a fork (RLIMIT_NPROC or the pids cgroup): the run is at its bound even when
  // the watchdog missed the peak of a tree that collapsed as fast as it grew.
  let stderrTail = '';
  const watchStderr = (chunk: Buffer) => {
    if (!bound || limitNote) return;
    stderrTail = (stderrTail + chunk.toString('latin1')).slice(-400);
    if (FORK_REFUSED.test(stderrTail)) stopAtBound(bound, 'the system refused to start more');
  };
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk) && onCap());
  child.stderr?.on('data', (chunk: Buffer) => {
    watchStderr(chunk);
    if (stderr.push(chunk)) onCap();
  });
  if (channel) child.channel?.on('data', (chunk: Buffer) => channel.push(chunk) && kill());
  for (const stream of streams) stream.on('error', () => {});
  // A launcher may hand over streams it paused (a warm call's sockets): they flow from here on.
  for (const stream of streams) stream.resume();

  // stdin: a tool that never reads it must not turn into an EPIPE failure.
  child.stdin?.on('error', () => {});
  child.stdin?.end(spec.stdin ?? '');

  let watchdog: ProcessWatchdog | undefined;
  if (prepared.watch && pid !== undefined && process.platform === 'linux') {
    const max = prepared.watch.maxProcesses;
    watchdog = watchProcessTree(pid, {
      maxProcesses: max,
      ...(prepared.watch.pidsEventsFile ? { pidsEventsFile: prepared.watch.pidsEventsFile } : {}),
      ...(prepared.watch.userLimit ? { userLimit: prepared.watch.userLimit } : {}),
      onExceeded: (count) => stopAtBound(max, `${count} alive when stopped`),
    });
  }

  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, spec.timeoutMs);
  const onAbort = () => {
    aborted = true;
    kill();
  };
  spec.signal?.addEventListener('abort', onAbort, { once: true });
  // An abort while the process was being launched (a warm call's launch takes a few ms) counts.
  if (spec.signal?.aborted && !aborted) onAbort();

  // A grandchild may keep our pipes open after the main process exits: give it `drainMs`, then
  // kill the group, which closes the pipes it held; what is still buffered in them is read to the
  // end (a busy event loop may not have read the last output yet). Only pipes that stay open
  // after that (held outside the group) are closed by us, so the promise settles.
  let drainTimer: NodeJS.Timeout | undefined;
  child.onExit((code, signal) => {
    exited = true;
    exitCode = code;
    exitSignal = signal;
    drainTimer = setTimeout(() => {
      if (pid !== undefined && posix) signalProcessGroup(pid, 'SIGKILL');
      drainTimer = setTimeout(() => {
        for (const stream of streams) stream.destroy();
      }, drainMs * 5);
    }, drainMs);
  });

  const outcome = await child.outcome;
  watchdog?.stop();
  keyGrant?.dispose();
  clearTimeout(timer);
  clearTimeout(drainTimer);
  spec.signal?.removeEventListener('abort', onAbort);
  if (pid !== undefined && posix) {
    // Nothing of this run may outlive it: background children that closed their pipes too.
    signalProcessGroup(pid, 'SIGKILL');
    untrackGroup(pid);
  }
  finished = true;

  const stdoutText = redact(stdout.text());
  let stderrText = redact(stderr.text());
  liveOut?.flush();
  liveErr?.flush();
  const exitedBadly = (exited ? exitCode : outcome.exitCode) !== 0;
  limitNote ??= prepared.limits && !timedOut && !aborted ? explainLimitFailure(stderrText, prepared.limits, exitedBadly) : undefined;
  // The note goes to stderr too: every format shows stderr's tail when a run fails.
  if (limitNote) stderrText = `${stderrText}${stderrText && !stderrText.endsWith('\n') ? '\n' : ''}tooldesk: ${limitNote}\n`;
  const result: RunResult = {
    exitCode: exited ? exitCode : (outcome.exitCode ?? null),
    signal: exited ? exitSignal : (outcome.signal ?? null),
    stdout: stdoutText,
    stderr: stderrText,
    timedOut,
    aborted,
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    durationMs: Date.now() - started,
    ...sandboxInfo,
  };
  if (limitNote) result.limitNote = limitNote;
  if (channel) {
    result.channel = redact(channel.text());
    if (channel.truncated) result.channelTruncated = true;
  }
  if (capAction) result.capAction = capAction;
  if (pid === undefined) result.spawnError = redact(describeSpawnFailure(prepared.command, outcome));
  return result;
}

function describeSpawnFailure(command: string, outcome: { code?: string; originalMessage?: string; shortMessage?: string }): string {
  if (outcome.code === 'ENOENT') return `command not found or working folder missing: ${command} (ENOENT)`;
  if (outcome.code === 'EACCES') return `permission denied: ${command} (EACCES)`;
  return outcome.originalMessage || outcome.shortMessage || `could not start ${command}`;
}
