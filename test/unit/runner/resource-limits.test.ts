import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPidsCgroup } from '../../../electron/runtime/runner/pids-cgroup.ts';
import { countTree, watchProcessTree } from '../../../electron/runtime/runner/process-watchdog.ts';
import { explainLimitFailure, prlimitPrefix, userTaskCount } from '../../../electron/runtime/runner/resource-limits.ts';

describe('resource limits', () => {
  it('builds the prlimit prefix: memory always, processes only for non-root users (root is exempt)', () => {
    expect(prlimitPrefix(undefined, { maxMemoryBytes: 1 })).toEqual([]);
    expect(prlimitPrefix('/usr/bin/prlimit', {})).toEqual([]);
    expect(prlimitPrefix('/usr/bin/prlimit', { maxMemoryBytes: 1024, maxProcesses: 10 }, 0)).toEqual(['/usr/bin/prlimit', '--data=1024', '--']);
    const user = prlimitPrefix('/usr/bin/prlimit', { maxProcesses: 10 }, 1000);
    expect(user[1]).toMatch(/^--nproc=\d+$/);
    // Relative to what the user already runs: the bound is headroom, not a total.
    expect(Number(user[1]!.split('=')[1])).toBe(userTaskCount(1000) + 10 + 4);
  });

  it('explains a failure that looks like a bound was hit, and nothing else', () => {
    const limits = { maxMemoryBytes: 512 * 1024 * 1024, maxProcesses: 64 };
    expect(explainLimitFailure('Traceback…\nMemoryError\n', limits)).toMatch(/out of memory.*512 MB/);
    expect(explainLimitFailure('sh: 1: Cannot fork\nfork: Resource temporarily unavailable', limits)).toMatch(/limited to 64 processes/);
    expect(explainLimitFailure('ValueError: bad input', limits)).toBeUndefined();
    expect(explainLimitFailure('BlockingIOError: [Errno 11] Resource temporarily unavailable (a socket)', limits)).toBeUndefined();
    expect(explainLimitFailure('MemoryError', limits, false)).toBeUndefined();
    expect(explainLimitFailure('sh: 1: Cannot fork', limits, false)).toMatch(/limited to 64/);
  });

  it('counts a process tree and stops it when it grows past the bound', async () => {
    const child = spawn('sh', ['-c', 'for i in 1 2 3 4 5 6 7 8; do sleep 5 & done; wait'], { stdio: 'ignore', detached: true });
    let fired = 0;
    const dog = watchProcessTree(child.pid!, { maxProcesses: 4, intervalMs: 10, onExceeded: (n) => { fired = n; process.kill(-child.pid!, 'SIGKILL'); } });
    await new Promise<void>((resolve) => child.on('exit', () => resolve()));
    dog.stop();
    expect(dog.exceeded).toBe(true);
    expect(fired).toBeGreaterThan(4);
    // The killed sleepers may outlive their shell by a moment (they are still in its session).
    for (let i = 0; i < 50 && countTree(child.pid!) > 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(countTree(child.pid!)).toBeLessThanOrEqual(1);
  });

  it('counts an orphan that left the tree but not the run\'s session (no sandbox init adopts it)', async () => {
    const marker = `td-orphan-${process.pid}-${Date.now()}`;
    // The subshell forks a sleeper and exits: the sleeper is re-parented outside the tree.
    const child = spawn('sh', ['-c', `(sh -c 'sleep 5; : ${marker}' &); exec sleep 5`], { stdio: 'ignore', detached: true });
    await new Promise((r) => setTimeout(r, 200));
    try {
      expect(countTree(child.pid!)).toBe(3);
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
    }
  });

  it('gives root a per-run pids cgroup where one is writable, and nobody else', () => {
    expect(createPidsCgroup(10, 1000)).toBeUndefined();
    const fake = mkdtempSync(join(tmpdir(), 'td-'));
    expect(createPidsCgroup(10, 0, fake)).toBeUndefined();
    const real = createPidsCgroup(10);
    if (!real) {
      console.log('no writable pids cgroup here (not root, or no cgroup v1 pids controller): checked the refusals only');
      return;
    }
    expect(readFileSync(join(real.dir, 'pids.max'), 'utf8').trim()).toBe('11');
    expect(real.prefix.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    real.dispose();
    expect(existsSync(real.dir)).toBe(false);
  });
});

describe('watchProcessTree on a busy machine', () => {
  it('still stops a growing tree while other programs end at the same time (the task-count hint hides the growth)', async () => {
    // Other programs: 30 sleepers that end just as the watched tree grows, so the machine's task
    // count falls while the tree gets bigger than its bound.
    const others = spawn('sh', ['-c', 'for i in $(seq 30); do sleep 0.4 & done; wait'], { stdio: 'ignore', detached: true });
    await new Promise((r) => setTimeout(r, 150));
    const child = spawn('sh', ['-c', 'sleep 0.3; for i in 1 2 3 4 5 6 7 8; do sleep 3 & done; wait'], { stdio: 'ignore', detached: true });
    let fired = 0;
    const dog = watchProcessTree(child.pid!, { maxProcesses: 4, intervalMs: 10, onExceeded: (n) => { fired = n; process.kill(-child.pid!, 'SIGKILL'); } });
    try {
      await new Promise<void>((resolve) => child.on('exit', () => resolve()));
    } finally {
      dog.stop();
      try {
        process.kill(-others.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    expect(dog.exceeded).toBe(true);
    expect(fired).toBeGreaterThan(4);
  });
});
