import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveHolder, lockFile, SchedulerLock } from '../../../electron/runtime/schedules/scheduler-lock.ts';

const homes: string[] = [];
const home = () => {
  const dir = mkdtempSync(join(tmpdir(), 'td-lock-'));
  homes.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

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
});
