// The spares of a zygote: a call's process forked ahead of its call (its streams connected, its
// group tracked, its pids cgroup joined), handed its call by `startInSpare`, and the exit status
// of a call as a cold run reports it. Split from warm-python-runner.ts, which decides what runs
// where; this file owns the per-call processes.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { constants } from 'node:os';
import type { Socket } from 'node:net';
import type { LaunchedProcess } from '../create-runner.ts';
import { signalProcessGroup } from '../kill-process-group.ts';
import { trackGroup, untrackGroup } from '../live-groups.ts';
import { createPidsCgroup, type PidsCgroup } from '../pids-cgroup.ts';
import { childPids, childWithInnerPid } from './host-pid.ts';
import type { Zygote, ZygoteRequest } from './zygote.ts';

const CONNECT_TIMEOUT_MS = 5_000;
/** Tells a spare it is bounded, so it may fork (zygote.py's docstring). */
const BOUNDED = Buffer.from([1]);

/** The spare ready (or on its way) on `zygote`, without taking it (tests and the benchmark). */
export function readySpare(zygote: Zygote): Promise<Spare | { error: string }> | undefined {
  return spares.get(zygote);
}

/**
 * A call's process forked ahead of its call: its streams connected, its group tracked, its pids
 * cgroup joined. Joining a cgroup waits for an RCU grace period (5-30 ms when joins are not
 * back to back), so each zygote keeps one spare ready and a call only hands it its request.
 */
export interface Spare {
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
export async function takeSpare(zygote: Zygote, maxProcesses: number | undefined): Promise<Spare | { error: string }> {
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
export function refillSpare(zygote: Zygote, maxProcesses: number | undefined): void {
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
  // Bounded (in its cgroup, when there is one): the spare may now fork its call's init, which
  // inherits the cgroup. One byte on the result stream, read before any tool code exists.
  sockets.get('3')!.write(BOUNDED);
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
export async function boundSpare(spare: Spare, maxProcesses: number): Promise<PidsCgroup | undefined | string> {
  if (spare.cgroup) return spare.cgroup.setMax(maxProcesses);
  const cgroup = createPidsCgroup(maxProcesses);
  if (!cgroup) return undefined;
  // The spare's call init was forked already (after BOUNDED): it joins too, before its call.
  let notJoined = await joinCgroup(cgroup, spare.hostPid);
  for (const child of notJoined ? [] : childPids(spare.hostPid)) notJoined ??= await joinCgroup(cgroup, child);
  if (notJoined) {
    cgroup.dispose();
    return notJoined;
  }
  // Disposed with the spare's end (prepareSpare).
  spare.cgroup = cgroup;
  return cgroup;
}

export function discardSpare(spare: Spare): void {
  signalProcessGroup(spare.hostPid, 'SIGKILL');
}

/** Hands the call to its spare: from here on the tool runs (or, if the spare had ended, nothing did). */
export async function startInSpare(zygote: Zygote, spare: Spare, request: ZygoteRequest): Promise<LaunchedProcess | { error: string }> {
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
    for (const listener of exitListeners) {
      try {
        listener(mapped.code, mapped.signal);
      } catch {
        // A listener's failure must not lose the exit status for the others or for the call.
      }
    }
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
