// Who a pid written in a file was: the pid alone is not enough, because a dead owner's pid can be
// given to an unrelated process later (a lock would then look held forever). Where /proc exists
// (Linux) the record also keeps the process's start time (field 22 of /proc/PID/stat, clock ticks
// since boot) and the boot id; the process is the same one only when both still match.
// Contract of processAlive:
//   - no such pid, or a zombie (state Z: exited, not yet reaped)          → false
//   - the record names another boot, or a start time that differs        → false (pid reused)
//   - the record has no start time (written by an older Tooldesk, or on a
//     system without /proc: macOS, Windows)                               → what kill(pid, 0) says
import { readFileSync } from 'node:fs';

export interface ProcessIdentity {
  pid: number;
  /** /proc/PID/stat field 22 (start time after boot, clock ticks), as written. */
  pidStart?: string;
  /** /proc/sys/kernel/random/boot_id when it was written. */
  bootId?: string;
}

/** This process (or `pid`) as it can be recognised later. */
export function processIdentity(pid: number = process.pid): ProcessIdentity {
  const stat = procStat(pid);
  const bootId = currentBootId();
  return { pid, ...(stat ? { pidStart: stat.start } : {}), ...(bootId ? { bootId } : {}) };
}

/** True when the process the record names still runs (see the header's contract). */
export function processAlive(identity: ProcessIdentity): boolean {
  const { pid } = identity;
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(pid);
  if (!stat) return true; // no /proc (or it hides the pid): kill(0) said it exists
  if (stat.state === 'Z') return false;
  if (identity.bootId !== undefined) {
    const boot = currentBootId();
    if (boot !== undefined && boot !== identity.bootId) return false;
  }
  return identity.pidStart === undefined || identity.pidStart === stat.start;
}

/** State (field 3) and start time (field 22) of /proc/PID/stat; the name (field 2) may hold spaces and parentheses. */
function procStat(pid: number): { state: string; start: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the name's closing parenthesis start at field 3.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const start = fields[22 - 3];
  return state && start ? { state, start } : undefined;
}

function currentBootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
