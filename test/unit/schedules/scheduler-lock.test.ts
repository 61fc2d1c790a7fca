import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveHolder, lockFile, SchedulerLock } from '../../../electron/runtime/schedules/scheduler-lock.ts';
import { processAlive, processIdentity } from '../../../electron/runtime/schedules/process-identity.ts';

const homes: string[] = [];
const home = () => {
  const dir = mkdtempSync(join(tmpdir(), 'td-lock-'));
  homes.push(dir);
  return dir;
};
const children: ChildProcess[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A live process started by the test, unrelated to any lock. */
function unrelatedProcess(): number {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

/** A zombie: `sh` forks `sleep 0`, then becomes `sleep 30`, which never reaps it. */
async function zombiePid(): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(parent);
  const pid = await new Promise<number>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
  // Until it has exited (state Z), it is a live `sleep 0`.
  for (let i = 0; i < 100 && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return pid;
}

/** A pid that existed and has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('SchedulerLock', () => {
  it('lets one holder in at a time and frees the lock on release', () => {
    const h = home();
    const a = new SchedulerLock(h);
    const b = new SchedulerLock(h);
    expect(a.acquire({ port: 1, token: 't' })).toBe(true);
    // Same process, but a second instance: the file names this pid, so b must not take it twice.
    expect(JSON.parse(readFileSync(lockFile(h), 'utf8'))).toMatchObject({ pid: process.pid, port: 1, token: 't' });
    expect(liveHolder(h)?.pid).toBe(process.pid);
    a.release();
    expect(liveHolder(h)).toBeUndefined();
    expect(b.acquire()).toBe(true);
    b.release();
  });

  it('refuses while a live process holds it, takes over a dead one\'s', () => {
    const h = home();
    mkdirSync(join(h, 'schedules'), { recursive: true });
    writeFileSync(lockFile(h), JSON.stringify({ pid: process.ppid, since: 1 }));
    expect(new SchedulerLock(h).acquire()).toBe(false);
    writeFileSync(lockFile(h), JSON.stringify({ pid: deadPid(), since: 1 }));
    const lock = new SchedulerLock(h);
    expect(lock.acquire()).toBe(true);
    expect(lock.heldByMe()).toBe(true);
  });

  it('notices when the lock was taken from it', () => {
    const h = home();
    const lock = new SchedulerLock(h);
    expect(lock.acquire()).toBe(true);
    writeFileSync(lockFile(h), JSON.stringify({ pid: process.ppid, since: 2 }));
    expect(lock.heldByMe()).toBe(false);
    lock.release();
    expect(liveHolder(h)?.pid).toBe(process.ppid);
  });

  it('takes over a lock whose pid now belongs to another process (pid reuse)', () => {
    const h = home();
    mkdirSync(join(h, 'schedules'), { recursive: true });
    const other = processIdentity(unrelatedProcess());
    expect(other.pidStart).toMatch(/^\d+$/);
    // The recorded owner started at another time: the live process with its pid is someone else.
    writeFileSync(lockFile(h), JSON.stringify({ ...other, pidStart: String(Number(other.pidStart) - 1), since: 1 }));
    expect(liveHolder(h)).toBeUndefined();
    const lock = new SchedulerLock(h);
    expect(lock.acquire()).toBe(true);
    expect(JSON.parse(readFileSync(lockFile(h), 'utf8'))).toMatchObject(processIdentity());
    lock.release();
    // The same pid from another boot is not the owner either.
    writeFileSync(lockFile(h), JSON.stringify({ ...other, bootId: 'another-boot', since: 1 }));
    expect(new SchedulerLock(h).acquire()).toBe(true);
  });

  it('still refuses while the recorded owner itself runs', () => {
    const h = home();
    mkdirSync(join(h, 'schedules'), { recursive: true });
    writeFileSync(lockFile(h), JSON.stringify({ ...processIdentity(unrelatedProcess()), since: 1 }));
    expect(new SchedulerLock(h).acquire()).toBe(false);
  });

  it('counts a zombie owner as dead', async () => {
    const h = home();
    mkdirSync(join(h, 'schedules'), { recursive: true });
    const zombie = await zombiePid();
    expect(() => process.kill(zombie, 0)).not.toThrow(); // the pid exists…
    expect(processAlive({ pid: zombie })).toBe(false); // …but the process is gone
    writeFileSync(lockFile(h), JSON.stringify({ pid: zombie, since: 1 }));
    expect(new SchedulerLock(h).acquire()).toBe(true);
  });
});
