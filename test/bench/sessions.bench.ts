// Peak memory of `sessions list` and `sessions show` on a 2 GiB session (issue 20 §6: ≤ 300 MB).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HUGE_SESSION_ID, writeHugeSession } from '../support/huge-session.ts';
import { report } from './report.ts';

const BIN = fileURLToPath(new URL('../../electron/cli/bin.mjs', import.meta.url));

export async function run(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'td-bench-sessions-'));
  try {
    const file = writeHugeSession(home, { branchBytes: 512 * 1024 ** 2, holeBytes: 1536 * 1024 ** 2 });
    const gib = (statSync(file).size / 1024 ** 3).toFixed(1);
    for (const args of [['list'], ['show', HUGE_SESSION_ID], ['show', HUGE_SESSION_ID, '--json']]) {
      const started = performance.now();
      const result = spawnSync('/usr/bin/time', ['-f', 'maxrss=%M', process.execPath, BIN, 'sessions', ...args], { env: { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: home }, encoding: 'utf8', maxBuffer: 64 * 1024 ** 2 });
      if (result.status !== 0) throw new Error(`sessions ${args.join(' ')} failed: ${result.stderr}`);
      const peakMb = Number(/maxrss=(\d+)/.exec(result.stderr)?.[1]) / 1024;
      report(peakMb, 'MB', `peak of sessions ${args.join(' ')} on a ${gib} GiB session (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
