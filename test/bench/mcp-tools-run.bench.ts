// `tooldesk tools run SERVER__tool` as a user runs it (the real CLI, a fresh process each time):
// with 10 MCP servers switched on — four of them slow to start, as `npx -y` / `uvx` servers are
// while they resolve themselves — against the same home with only that server switched on. Only
// the tool's own server should start, so the two should take about the same time (target ≤ 1.3×).
// Runs alternate between the two homes so both see the same load.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVERYTHING, fixture } from '../support/mcp-servers.ts';
import { percentile, report } from './report.ts';

const RUNS = 5;
const CLI = fileURLToPath(new URL('../../electron/cli/bin.mjs', import.meta.url));
const SLOW_MS = [1500, 2000, 2500, 3000];
const median = (times: number[]) => percentile([...times].sort((a, b) => a - b), 50);

/** A home with s0 (server-everything), five more of it and four slow starters; `on` are switched on. */
function home(on: 'all' | 's0'): string {
  const dir = mkdtempSync('/var/tmp/td-bench-run-');
  mkdirSync(join(dir, 'tools'), { recursive: true });
  const servers: Record<string, unknown> = {};
  for (let i = 0; i < 6; i++) servers[`s${i}`] = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
  SLOW_MS.forEach((ms, i) => (servers[`s${6 + i}`] = { command: process.execPath, args: [fixture('slow-start-server.mjs'), String(ms)] }));
  const groupDefaults = Object.fromEntries(Object.keys(servers).map((name) => [name, on === 'all' || name === 's0']));
  writeFileSync(join(dir, 'settings.json'), JSON.stringify({ mcpServers: servers, groupDefaults }));
  return dir;
}

function runOnce(dir: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, 'tools', 'run', 's0__get-sum', '--args', '{"a": 1, "b": 2}', '--yes'], { env: { ...process.env, TOOLDESK_HOME: dir } }, (error, stdout, stderr) => {
      if (error || !stdout.includes('The sum of 1 and 2 is 3')) reject(new Error(`tools run failed: ${stdout}${stderr}${error?.message ?? ''}`));
      else resolve(performance.now() - started);
    });
  });
}

export async function run(): Promise<void> {
  const all = home('all');
  const one = home('s0');
  try {
    await runOnce(all);
    await runOnce(one);
    const times = { all: [] as number[], one: [] as number[] };
    for (let i = 0; i < RUNS; i++) {
      times.all.push(await runOnce(all));
      times.one.push(await runOnce(one));
    }
    const a = median(times.all);
    const o = median(times.one);
    report(a, 'ms', `tools run s0__get-sum, 10 servers switched on (4 slow to start, ${SLOW_MS[0]! / 1000}–${SLOW_MS.at(-1)! / 1000} s) (median of ${RUNS})`);
    report(o, 'ms', `tools run s0__get-sum, only s0 switched on (median of ${RUNS})`);
    console.log(`${`${(a / o).toFixed(2)}×`.padStart(16)}  10 servers on / only its server (target ≤ 1.3×)`);
  } finally {
    rmSync(all, { recursive: true, force: true });
    rmSync(one, { recursive: true, force: true });
  }
}
