// Starts a long-lived child (a tool host, an MCP server) through the same sandbox and bounds as a
// one-shot tool run: its own process group, minimal environment plus declared secrets, bounded
// stderr, a group kill, and no way to outlive the app (bwrap's --die-with-parent, and a lifeline
// pipe that kills the group when the app's end of it closes, whatever way the app died).
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { killProcessGroup, signalProcessGroup } from './kill-process-group.ts';
import { minimalEnv } from './minimal-env.ts';
import { watchProcessTree, type ProcessWatchdog } from './process-watchdog.ts';
import { createRedactor, createStreamRedactor, type Redact } from './redact-secrets.ts';
import { prepareSandboxedCommand } from './sandbox.ts';
import { missingSecretsMessage } from './secret-resolver.ts';
import type { RunnerOptions, SandboxSpec } from './types.ts';
import { trackGroup, untrackGroup } from './live-groups.ts';

export interface ManagedSpec {
  command: string;
  args: string[];
  cwd: string;
  /** Added to the minimal base environment (PATH, HOME, LANG, TEMP…). */
  env?: Record<string, string>;
  /** Keychain secret names to inject as environment variables (and redact from stderr). */
  secrets?: string[];
  sandbox?: SandboxSpec;
  /** The stderr tail kept for `stderrTail()`, bytes (default 64 KiB). */
  maxStderrBytes?: number;
}

export interface ManagedProcess {
  pid: number;
  stdin: Writable;
  stdout: Readable;
  /** Live stderr, secrets already redacted. Returns the unsubscribe function. */
  onStderr(listener: (text: string) => void): () => void;
  /** The last `maxStderrBytes` of stderr, redacted. */
  stderrTail(): string;
  /** Settles once the process has exited (never rejects). */
  exited: Promise<{ code: number | null; signal: string | null }>;
  sandboxed: boolean;
  /** Why it is not sandboxed (auto mode). */
  note?: string;
  /** Things the user should know that did not stop the start (from the sandbox). */
  warnings: string[];
  /** Where the sandbox's search for secret files was cut short (see PreparedCommand). */
  secretScanNotes: string[];
  /** Replaces the declared secrets' values in text that came from the process (its stdout). */
  redact: Redact;
  /** SIGTERM the group, a grace period, then SIGKILL; settles once the process has exited. */
  kill(): Promise<void>;
  /**
   * Whether this process keeps the app's event loop alive (the default). A CLI command that is
   * done must be able to exit while an idle child still runs: `unref()` then, `ref()` when busy.
   */
  ref(): void;
  unref(): void;
}

const DEFAULT_STDERR_BYTES = 64 * 1024;
const DEFAULT_KILL_GRACE_MS = 500;

/**
 * The lifeline: a shell that starts a watcher (detached from the command's process tree, so
 * process-count bounds do not count it, but in its process group) and then becomes the command.
 * The watcher blocks reading fd 3, a pipe whose other end only the app holds: when the app exits
 * or is killed, the read returns and the watcher kills the whole group.
 */
const LIFELINE = '( ( read -r _ <&3; kill -KILL 0 ) 0</dev/null >/dev/null 2>&1 & ) ; exec "$@" 3<&-';


/** Starts the process. Never throws: a process that cannot start is `{ error }` naming why. */
export async function spawnManaged(spec: ManagedSpec, options: RunnerOptions = {}): Promise<ManagedProcess | { error: string }> {
  try {
    return await start(spec, options);
  } catch (error) {
    return { error: `could not start ${spec.command}: ${(error as Error).message}` };
  }
}

async function start(spec: ManagedSpec, options: RunnerOptions): Promise<ManagedProcess | { error: string }> {
  const baseEnv = minimalEnv(options.baseEnv ?? process.env, spec.env ?? {});
  if (!findCommand(spec.command, baseEnv.PATH ?? '', spec.cwd)) return { error: `command not found: ${spec.command}` };

  let secretEnv: Record<string, string> = {};
  if (spec.secrets && spec.secrets.length > 0) {
    if (!options.resolveSecrets) return { error: `secrets requested (${spec.secrets.join(', ')}) but no secret store is available` };
    const resolved = await options.resolveSecrets(spec.secrets);
    if (resolved.missing.length > 0) return { error: missingSecretsMessage(resolved.missing, resolved.noKeychain) };
    secretEnv = resolved.values;
  }

  const prepared = prepareSandboxedCommand({ command: spec.command, args: spec.args, cwd: spec.cwd, timeoutMs: 0, ...(spec.sandbox ? { sandbox: spec.sandbox } : {}) });
  if (prepared.refuse) {
    prepared.cleanup?.();
    return { error: `refused to start unsandboxed: ${prepared.note ?? 'no sandbox available'}` };
  }
  const keyGrant = options.keyEndpoint?.register(spec.secrets ?? [], (name) => secretEnv[name]);
  const posix = process.platform !== 'win32';
  const [command, args] = posix
    ? ['/bin/sh', ['-c', LIFELINE, 'tooldesk-managed', prepared.command, ...prepared.args]]
    : [prepared.command, prepared.args];

  const child: ChildProcess = spawn(command, args, {
    cwd: spec.cwd,
    env: minimalEnv(options.baseEnv ?? process.env, { ...spec.env, ...prepared.env, ...keyGrant?.env, ...secretEnv }),
    detached: posix,
    stdio: posix ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const failed = await spawnFailure(child);
  if (failed || child.pid === undefined) {
    keyGrant?.dispose();
    prepared.cleanup?.();
    return { error: `could not start ${spec.command}: ${failed ?? 'no process id'}` };
  }
  const pid = child.pid;
  if (posix) trackGroup(pid);

  const redact = createRedactor(secretEnv);
  const listeners = new Set<(text: string) => void>();
  const cap = spec.maxStderrBytes ?? DEFAULT_STDERR_BYTES;
  let tail = '';
  const liveErr = createStreamRedactor(secretEnv, (text) => {
    tail = (tail + text).slice(-cap);
    for (const listener of [...listeners]) {
      try {
        listener(text);
      } catch {
        // A listener's failure must not stop the others or the process.
      }
    }
  });
  const decoder = new TextDecoder('utf-8', { fatal: false });
  child.stderr!.on('data', (chunk: Buffer) => liveErr.push(decoder.decode(chunk, { stream: true })));
  for (const stream of [child.stdin, child.stdout, child.stderr, child.stdio[3]]) stream?.on('error', () => {});

  let watchdog: ProcessWatchdog | undefined;
  if (prepared.watch && process.platform === 'linux') {
    watchdog = watchProcessTree(pid, {
      maxProcesses: prepared.watch.maxProcesses,
      ...(prepared.watch.pidsEventsFile ? { pidsEventsFile: prepared.watch.pidsEventsFile } : {}),
      ...(prepared.watch.userLimit ? { userLimit: prepared.watch.userLimit } : {}),
      onExceeded: (count) => {
        liveErr.push(`\ntooldesk: stopped: more than ${prepared.watch!.maxProcesses} processes at once (${count} alive); the limit is in Settings → Limits.\n`);
        signalProcessGroup(pid, 'SIGKILL');
      },
    });
  }

  let done = false;
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      done = true;
      watchdog?.stop();
      keyGrant?.dispose();
      liveErr.flush();
      // Whatever the command left behind in its group goes with it.
      if (posix) {
        signalProcessGroup(pid, 'SIGKILL');
        untrackGroup(pid);
      }
      (child.stdio[3] as Writable | null)?.destroy();
      prepared.cleanup?.();
      resolve({ code, signal });
    });
  });

  const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const handles = [child.stdin, child.stdout, child.stderr, child.stdio[3]] as Array<{ ref?: () => void; unref?: () => void } | null>;
  return {
    pid,
    stdin: child.stdin!,
    stdout: child.stdout!,
    onStderr(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stderrTail: () => tail,
    exited,
    sandboxed: prepared.sandboxed,
    ...(prepared.note ? { note: prepared.note } : {}),
    warnings: [...(prepared.warnings ?? [])],
    secretScanNotes: [...(prepared.secretScanNotes ?? [])],
    redact,
    async kill() {
      if (!done) {
        // Someone waits for the exit now: an unref()'d child must keep the app alive until then.
        child.ref();
        for (const handle of handles) handle?.ref?.();
        if (posix) killProcessGroup(pid, graceMs, () => done);
        else child.kill('SIGKILL');
      }
      await exited;
    },
    ref() {
      child.ref();
      for (const handle of handles) handle?.ref?.();
    },
    unref() {
      child.unref();
      for (const handle of handles) handle?.unref?.();
    },
  };
}

/** Resolves with the spawn error's message, or undefined once the process is running. */
function spawnFailure(child: ChildProcess): Promise<string | undefined> {
  return new Promise((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ? `${error.message}` : error.message));
    child.once('spawn', () => resolve(undefined));
  });
}

/** Whether `command` names an executable file (absolute, relative to cwd, or on PATH). */
function findCommand(command: string, path: string, cwd: string): boolean {
  const executable = (file: string) => {
    try {
      accessSync(file, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (isAbsolute(command)) return executable(command);
  if (command.includes('/') || command.includes('\\')) return executable(join(cwd, command));
  if (process.platform === 'win32') return true; // PATHEXT lookups: leave it to spawn's ENOENT.
  return path.split(delimiter).some((dir) => dir && executable(join(dir, command)));
}
