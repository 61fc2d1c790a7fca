// A run stopped in its first milliseconds ends whole. bwrap's --die-with-parent misses an outer
// bwrap killed before its child set it up, and with --new-session the child sat outside the run's
// process group: the sandboxed command lived on as an orphan (the CLI's `tools run` of a module
// whose exec() its host's exit cancelled left one about one run in three). The runner's own abort
// at 0–15 ms after the start, many times over, must leave nothing behind.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunner } from '../../electron/runtime/runner/create-runner.ts';
import { detectSandbox } from '../../electron/runtime/runner/sandbox-detect.ts';
import { waitNoneWithMarker } from '../support/live-processes.ts';

const bwrap = process.platform === 'linux' && detectSandbox().kind === 'bwrap';

describe.skipIf(!bwrap)('a sandboxed run stopped as it starts', () => {
  it('leaves no process of it alive, whenever in its first 15 ms the stop comes', async () => {
    const run = createRunner({ killGraceMs: 100 });
    const dir = mkdtempSync(join(tmpdir(), 'td-early-kill-'));
    const marker = `td-early-kill-${process.pid}-${Date.now()}`;
    const survivors: Array<{ delayMs: number; pids: number[] }> = [];
    for (let round = 0; round < 4; round++) {
      for (let delayMs = 0; delayMs <= 15; delayMs++) {
        const controller = new AbortController();
        const done = run({ command: 'sh', args: ['-c', `sleep 30; : ${marker}`], cwd: dir, timeoutMs: 20_000, signal: controller.signal, sandbox: { mode: 'required', network: false, toolDir: dir } });
        setTimeout(() => controller.abort(), delayMs);
        const result = await done;
        expect(result.exitCode === 0).toBe(false);
        const pids = await waitNoneWithMarker(marker, 300);
        if (pids.length > 0) {
          survivors.push({ delayMs, pids });
          for (const pid of pids) killQuietly(pid);
        }
      }
    }
    expect(survivors).toEqual([]);
  }, 120_000);
});

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // ended meanwhile
  }
}
