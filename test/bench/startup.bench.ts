// `npm run bench -- startup`: what a `tooldesk` command costs before it does anything, as users
// run it (the bundle: `node electron/cli/bin.mjs`), side by side with `node -e 0` in the same
// run (medians of fresh processes, interleaved so a busy machine weighs on both alike); browser
// mode's time to the printed link and its idle memory (the app process's own RSS; children such
// as MCP servers are printed apart); then the warm tool loads of the python-tools and discovery
// benchmarks.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildCliBundle, cliBundleState } from '../../electron/cli/cli-bundle.mjs';
import { rendererBuildState } from '../../electron/cli/serve/renderer-build.ts';
import { repoRoot } from '../support/run-cli.ts';
import { homeWithSessions } from '../support/session-homes.ts';
import { percentile, report } from './report.ts';

const RUNS = 10;
const bin = join(repoRoot, 'electron/cli/bin.mjs');
const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
const freshHome = () => mkdtempSync(join(tmpdir(), 'td-bench-start-'));

function env(home: string): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, TOOLDESK_HOME: home, TOOLDESK_SECRET_SERVICE: `TooldeskBench-${process.pid}` };
  delete e.TOOLDESK_FROM_SOURCES;
  return e;
}

/** Wall time of one process to its exit, ms. */
function timed(args: string[], home: string): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: repoRoot, env: env(home), stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return ms;
}

/** Resident memory of one process (not its children), MB. */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid && fields[0] !== 'Z') out.push(Number(name), ...childrenOf(Number(name)));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Bytes of bundled code a traced process loaded, by package or by our own folder, largest first. */
function loadedCodeByHolder(traceFile: string): Array<[string, number]> {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'out/cli/manifest.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }> };
  const holders = new Map<string, number>();
  for (const line of new Set(readFileSync(traceFile, 'utf8').split('\n').filter(Boolean))) {
    const path = line.startsWith('file://') ? new URL(line).pathname : line;
    for (const [input, { bytesInOutput }] of Object.entries(manifest.outputs[relative(repoRoot, path)]?.inputs ?? {})) {
      const holder = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input.split('/').slice(0, 3).join('/');
      holders.set(holder, (holders.get(holder) ?? 0) + bytesInOutput);
    }
  }
  return [...holders].sort((a, b) => b[1] - a[1]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Served {
  linkMs: number;
  pid: number;
  stop(): Promise<void>;
}

/** `tooldesk serve --port 0 --no-build` until its link is printed. */
function serve(home: string, nodeArgs: string[] = [], extraEnv: NodeJS.ProcessEnv = {}): Promise<Served> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, bin, 'serve', '--port', '0', '--no-build'], { cwd: repoRoot, env: { ...env(home), ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!/http:\/\/127\.0\.0\.1:\d+\/#token=/.test(out)) return;
      resolve({
        linkMs: performance.now() - started,
        pid: child.pid!,
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before printing its link: ${err}`)));
  });
}

export async function run(): Promise<void> {
  if (!cliBundleState().fresh) await buildCliBundle();
  if (!rendererBuildState().fresh) throw new Error('out/renderer is stale: run `npm run build` first (serve is timed with --no-build)');

  const empty = freshHome();
  const sessions = homeWithSessions(100);
  const rows = { node: [] as number[], version: [] as number[], help: [] as number[], tools: [] as number[], sessions: [] as number[] };
  timed([bin, '--version'], empty); // the page cache, once
  for (let i = 0; i < RUNS; i++) {
    rows.node.push(timed(['-e', '0'], empty));
    rows.version.push(timed([bin, '--version'], empty));
    rows.help.push(timed([bin, 'help'], empty));
    rows.tools.push(timed([bin, 'tools', 'list'], freshHome()));
    rows.sessions.push(timed([bin, 'sessions', 'list'], sessions));
  }
  const node = median(rows.node);
  report(node, 'ms', `\`node -e 0\` (median of ${RUNS}; the ratios below are to this)`);
  const row = (ms: number, what: string, target: number) => report(ms, 'ms', `${what}: ${(ms / node).toFixed(2)}× bare node (target ≤ ${target}×)`);
  row(median(rows.version), '`tooldesk --version`', 3);
  row(median(rows.help), '`tooldesk help`', 3);
  row(median(rows.tools), '`tooldesk tools list`, empty home', 5);
  row(median(rows.sessions), '`tooldesk sessions list`, 100 sessions', 5);

  const links: number[] = [];
  const idle: number[] = [];
  for (let i = 0; i < 5; i++) {
    const served = await serve(freshHome());
    links.push(served.linkMs);
    await sleep(3000); // idle: what it holds once started
    idle.push(rssMb(served.pid));
    await served.stop();
  }
  row(median(links), '`tooldesk serve` → link printed, fresh home (median of 5)', 8);
  report(median(idle), 'MB', 'browser mode idle RSS, fresh home, app process only (median of 5; target ≤ 150 MB)');

  // What the idle process loaded, by package (or our own folder): the biggest holders of code.
  const trace = join(freshHome(), 'modules.txt');
  const traced = await serve(freshHome(), ['--import', join(repoRoot, 'test/support/trace-modules.mjs')], { TOOLDESK_TRACE_MODULES: trace });
  await sleep(3000);
  await traced.stop();
  for (const [holder, bytes] of loadedCodeByHolder(trace).slice(0, 6)) report(bytes / 1024, 'KB', `  idle browser mode loaded ${holder}`);

  // Ten enabled stdio MCP servers (a small raw JSON-RPC server each), started by the app.
  const mcpHome = freshHome();
  const servers: Record<string, unknown> = {};
  const groups: Record<string, boolean> = {};
  for (let i = 0; i < 10; i++) {
    servers[`logs${i}`] = { command: process.execPath, args: [join(repoRoot, 'test/fixtures/mcp/log-server.mjs')], sandbox: 'off' };
    groups[`logs${i}`] = true;
  }
  writeFileSync(join(mcpHome, 'settings.json'), JSON.stringify({ mcpServers: servers, groupDefaults: groups }));
  const withMcp = await serve(mcpHome);
  let children: number[] = [];
  for (let waited = 0; waited < 15_000; waited += 250) {
    children = childrenOf(withMcp.pid);
    if (children.length >= 10) break;
    await sleep(250);
  }
  await sleep(3000);
  children = childrenOf(withMcp.pid);
  const appRss = rssMb(withMcp.pid);
  const childRss = children.reduce((sum, pid) => sum + (() => {
    try {
      return rssMb(pid);
    } catch {
      return 0;
    }
  })(), 0);
  await withMcp.stop();
  report(appRss, 'MB', 'browser mode RSS with 10 MCP servers enabled, app process only');
  report(childRss, 'MB', `  … and its ${children.length} child processes together (the servers), apart`);

  const { warmPythonLoad } = await import('./python-tools.bench.ts');
  const python = await warmPythonLoad();
  report(python.ms, 'ms', `warm load of ${python.tools} cached Python tools, median of 5 (target ≤ 50 ms; python-tools bench)`);
  report(python.cpuMs, 'ms', '  … of which CPU time of this process (what a busy machine cannot inflate)');
  report(python.spawned, 'processes', 'spawned by those warm loads (target 0)');
  const { warmDiscovery } = await import('./discovery.bench.ts');
  const discovery = await warmDiscovery();
  report(discovery.ms, 'ms', `discovery of ${discovery.tools} mixed tools, caches fresh, median of 3 (target ≤ 150 ms; discovery bench)`);
  report(discovery.cpuMs, 'ms', '  … of which CPU time of this process (TS modules load in the tool host, a child process)');
}
