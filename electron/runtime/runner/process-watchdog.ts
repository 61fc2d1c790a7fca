// Bounds the number of processes a tool run has alive at once (Linux, /proc). RLIMIT_NPROC does
// not bind root and counts the whole user; this counts the run's own process tree and stops it
// with a clear reason. Cheap while idle: one read of /proc/loadavg per tick, and a full /proc
// scan only when the machine's task count has grown by more than the bound.
import { readFileSync } from 'node:fs';
import { readProcTable } from './proc-table.ts';
import { userTaskCount } from './resource-limits.ts';

export interface ProcessWatchdog {
  stop(): void;
  /** Set once the bound was exceeded. */
  readonly exceeded: boolean;
}

export interface WatchOptions {
  maxProcesses: number;
  intervalMs?: number;
  /** A cgroup's `pids.events`: a non-zero `max` count means the kernel already refused forks. */
  pidsEventsFile?: string;
  /**
   * The RLIMIT_NPROC set on the run (not root, no user namespace around it): once `uid` has
   * `tasks` tasks the kernel refuses the run's forks, so the run is at its bound even when the
   * user's other programs left it fewer than `maxProcesses` processes.
   */
  userLimit?: { uid: number; tasks: number };
  /** Called once, with the count seen, when the tree exceeds the bound. Kill the run here. */
  onExceeded: (count: number) => void;
}

/** However quiet the machine-wide hint, the tree is counted at least this often. */
const FULL_COUNT_MS = 100;

export function watchProcessTree(rootPid: number, options: WatchOptions): ProcessWatchdog {
  const interval = options.intervalMs ?? 20;
  let baseline = totalTasks();
  let exceeded = false;
  let lastUserCheck = 0;
  let lastFullCount = 0;
  const fire = (count: number) => {
    exceeded = true;
    clearInterval(timer);
    options.onExceeded(count);
  };
  const tick = () => {
    if (exceeded) return;
    if (options.pidsEventsFile && forksRefused(options.pidsEventsFile)) return fire(countTree(rootPid));
    const total = totalTasks();
    // The machine-wide task count is a cheap hint that the tree may have grown (half the bound: a
    // tree whose processes die as fast as they fork is caught near its peak). Other programs
    // ending at the same time can hide that growth from it, so the tree is counted anyway at
    // least every FULL_COUNT_MS.
    const now = Date.now();
    const hinted = total === undefined || baseline === undefined || total - baseline > options.maxProcesses / 2;
    if (!hinted && now - lastFullCount < FULL_COUNT_MS) return;
    lastFullCount = now;
    const count = countTree(rootPid);
    if (count > options.maxProcesses) return fire(count);
    const limit = options.userLimit;
    // -1: a tree held at the limit forks again as soon as one of its processes exits. At most
    // every 100 ms: it stats every process, and a tree held at the limit stays there.
    if (limit && now - lastUserCheck >= 100) {
      lastUserCheck = now;
      if (userTaskCount(limit.uid, now, 0) >= limit.tasks - 1) return fire(count);
    }
    // Others' processes grew, not ours: move the baseline so the next ticks stay cheap.
    if (total !== undefined) baseline = total - count;
  };
  const timer = setInterval(tick, interval);
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    get exceeded() {
      return exceeded;
    },
  };
}

function forksRefused(eventsFile: string): boolean {
  try {
    const events = readFileSync(eventsFile, 'utf8');
    return /^max \d+/m.test(events) && !/^max 0$/m.test(events);
  } catch {
    return false;
  }
}

/** All tasks on the machine (the 4th field of /proc/loadavg, "running/total"). */
function totalTasks(): number | undefined {
  try {
    const total = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[3]?.split('/')[1]);
    return Number.isFinite(total) ? total : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The run's live processes (zombies excluded): `rootPid` (a detached run: its session and process
 * group leader), what descends from it, and what is still in its session after its parent died
 * (an orphan is re-parented outside the tree unless a sandbox's init adopts it).
 */
export function countTree(rootPid: number): number {
  const children = new Map<number, number[]>();
  const stack = [rootPid];
  for (const p of readProcTable()) {
    if (p.state === 'Z' || p.state === 'X') continue;
    if (p.session === rootPid) stack.push(p.pid);
    const list = children.get(p.ppid) ?? [];
    list.push(p.pid);
    children.set(p.ppid, list);
  }
  let count = 0;
  const seen = new Set<number>();
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    count++;
    stack.push(...(children.get(pid) ?? []));
  }
  return count;
}
