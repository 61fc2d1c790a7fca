// `tooldesk mcp serve`: the latency a call gains by going through MCP (SDK client → stdio →
// mcp serve → the same executor) over the same call through `tools run`'s executor in-process.
// Medians of 200 calls each, for a tool that spawns a process and for a built-in one.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { parseArgs } from '../../electron/cli/parse-args.ts';
import { loadCliTools } from '../../electron/cli/tools-load.ts';
import { percentile, report } from './report.ts';

const CALLS = 200;
const repo = fileURLToPath(new URL('../..', import.meta.url));
const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

/** Alternates the two ways call by call, so load on the machine weighs on both alike. */
async function timePair(a: () => Promise<void>, b: () => Promise<void>): Promise<[number, number]> {
  for (let i = 0; i < 10; i++) {
    await a();
    await b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    let started = performance.now();
    await a();
    ta.push(performance.now() - started);
    started = performance.now();
    await b();
    tb.push(performance.now() - started);
  }
  return [median(ta), median(tb)];
}

export async function run(): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'td-bench-mcp-'));
  const home = join(base, 'home');
  const root = join(base, 'tools');
  mkdirSync(home, { recursive: true });
  cpSync(join(repo, 'resources/examples/json_pick'), join(root, 'json_pick'), { recursive: true });
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ groupDefaults: { script: true } }));
  const env: Record<string, string> = { ...(process.env as Record<string, string>), TOOLDESK_HOME: home };
  const cases: [string, string, Record<string, unknown>][] = [
    ['script_json_pick', 'script tool (a process per call)', { json: '{"a": {"b": 1}}', path: 'a.b' }],
    ['ListVars', 'built-in ListVars (no process)', {}],
  ];

  const loaded = await loadCliTools(parseArgs(['--root', root], { values: ['root'] }), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env });
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(repo, 'electron/cli/bin.mjs'), 'mcp', 'serve', '--root', root], env, stderr: 'ignore' }));
  try {
    for (const [name, what, args] of cases) {
      const [inProcess, viaMcp] = await timePair(
        async () => {
          const result = await loaded.session.execute(name, args);
          if (result.status !== 'SUCCESS') throw new Error(`${name} failed in-process: ${result.finalText}`);
        },
        async () => {
          const result = await client.callTool({ name, arguments: args });
          if (result.isError) throw new Error(`${name} failed through mcp serve: ${JSON.stringify(result.content)}`);
        },
      );
      report(inProcess, 'ms', `${what}: median of ${CALLS} calls through the executor in-process (tools run)`);
      report(viaMcp, 'ms', `${what}: median of ${CALLS} calls through mcp serve (SDK client, stdio)`);
      report(viaMcp - inProcess, 'ms', `${what}: added by mcp serve`);
      report(viaMcp / inProcess, '×', `${what}: mcp serve / in-process`);
    }
  } finally {
    await client.close();
    await loaded.close();
    rmSync(base, { recursive: true, force: true });
  }
}
