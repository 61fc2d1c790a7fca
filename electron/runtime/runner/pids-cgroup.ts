// A hard process-count bound for root on Linux. RLIMIT_NPROC never binds root (the kernel exempts
// it), so when the app runs as root and the cgroup v1 `pids` controller is writable, each run gets
// its own cgroup with `pids.max`: a fork bomb then fails to fork instead of filling the pid table
// (the watchdog only stops it after the fact).
import { accessSync, constants, existsSync, mkdirSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

const PIDS_ROOT = '/sys/fs/cgroup/pids';

export interface PidsCgroup {
  dir: string;
  /** `sh -c 'echo $$ > DIR/cgroup.procs && exec "$@"' …`: the run joins the cgroup before its command starts. */
  prefix: string[];
  /** Sets the bound (undefined: none); returns this cgroup. */
  setMax(maxProcesses: number | undefined): PidsCgroup;
  /** Removes the cgroup once its processes are gone (retries briefly; an empty leftover is harmless). */
  dispose(): void;
}

/** maxProcesses undefined: a cgroup without a bound yet (`setMax` gives it one). */
export function createPidsCgroup(maxProcesses: number | undefined, uid: number = process.getuid?.() ?? -1, root: string = PIDS_ROOT): PidsCgroup | undefined {
  if (uid !== 0 || process.platform !== 'linux') return undefined;
  try {
    accessSync(join(root, 'cgroup.procs'), constants.W_OK);
  } catch {
    return undefined;
  }
  sweepOnce(join(root, 'tooldesk'));
  const dir = join(root, 'tooldesk', `run-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeMax(dir, maxProcesses);
  } catch {
    return undefined;
  }
  const cgroup: PidsCgroup = {
    dir,
    setMax(max) {
      writeMax(dir, max);
      return cgroup;
    },
    prefix: ['/bin/sh', '-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', dir],
    dispose: () => removeWhenEmpty(dir, 20),
  };
  return cgroup;
}

function writeMax(dir: string, maxProcesses: number | undefined): void {
  // +1: the process that joins (the cold path's shell, which execs into the command; a warm
  // call's supervisor).
  writeFileSync(join(dir, 'pids.max'), maxProcesses === undefined ? 'max' : String(Math.max(1, Math.floor(maxProcesses)) + 1));
}

let swept = false;

/** Removes the empty cgroups that exited processes left (their last run's retry never came). */
function sweepOnce(parent: string): void {
  if (swept) return;
  swept = true;
  let names: string[] = [];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^run-(\d+)-/.exec(name)?.[1];
    if (!pid || existsSync(`/proc/${pid}`)) continue;
    try {
      rmdirSync(join(parent, name));
    } catch {
      // still has processes, or already gone
    }
  }
}

function removeWhenEmpty(dir: string, triesLeft: number): void {
  try {
    rmdirSync(dir);
  } catch {
    if (triesLeft > 0) setTimeout(() => removeWhenEmpty(dir, triesLeft - 1), 100).unref();
  }
}
