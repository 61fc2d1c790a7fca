// MCP: what a Tooldesk call adds over the SDK's own callTool on the same stdio server
// (server-everything's get-sum), and the time from enabling 10 stdio servers to all tools listed.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpManager } from '../../electron/runtime/sources/mcp/mcp-manager.ts';
import { managedSpawn } from '../../electron/runtime/sources/mcp/index.ts';
import { ToolExecutor } from '../../electron/runtime/tools/tool-executor.ts';
import { EVERYTHING } from '../support/mcp-servers.ts';
import { percentile, report } from './report.ts';

const CALLS = 200;
const median = (times: number[]) => percentile([...times].sort((a, b) => a - b), 50);

function manager(): McpManager {
  return new McpManager({ spawn: managedSpawn(), resolveSecrets: async (names) => ({ values: {}, missing: names }), workingDir: process.cwd() });
}

async function callOverhead(): Promise<void> {
  // Direct: the SDK client on its own stdio transport.
  const direct = new Client({ name: 'bench', version: '1' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
  await direct.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }));
  for (let i = 0; i < 20; i++) await direct.callTool({ name: 'get-sum', arguments: { a: 1, b: i } });
  const directTimes: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await direct.callTool({ name: 'get-sum', arguments: { a: 1, b: i } });
    directTimes.push(performance.now() - started);
  }
  await direct.close();

  // Tooldesk: the same server (unsandboxed, like the direct one) through the manager and the executor.
  const m = manager();
  await m.configure({ ev: { command: process.execPath, args: [EVERYTHING, 'stdio'], sandbox: 'off' } }, { ev: true });
  await m.startAll();
  const executor = new ToolExecutor({ sessionId: 'bench' });
  const group = m.groups()[0]!;
  for (const tool of group.tools) tool.permission = { executionPolicy: 'auto' };
  executor.registerToolGroup(group);
  executor.toggleGroupEnabled('ev', true);
  for (let i = 0; i < 20; i++) await executor.execute('ev__get-sum', { a: 1, b: i });
  const ours: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    const result = await executor.execute('ev__get-sum', { a: 1, b: i }, { callId: `c${i}` });
    ours.push(performance.now() - started);
    if (result.status !== 'SUCCESS') throw new Error(`bench call failed: ${result.finalText}`);
  }
  await m.close();
  const d = median(directTimes);
  const t = median(ours);
  report(d, 'ms', `direct SDK callTool, stdio server-everything get-sum (median of ${CALLS})`);
  report(t, 'ms', `Tooldesk executor → MCP call, same server (median of ${CALLS})`);
  report(t - d, 'ms', 'added by Tooldesk per call (target ≤ 1 ms)');
  console.log(`${`${(t / d).toFixed(2)}×`.padStart(16)}  Tooldesk / direct`);
}

async function tenServers(): Promise<void> {
  const m = manager();
  const servers = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`s${i}`, { command: process.execPath, args: [EVERYTHING, 'stdio'] }]));
  await m.configure(servers, {});
  const started = performance.now();
  await m.configure(servers, Object.fromEntries(Object.keys(servers).map((k) => [k, true])));
  await m.startAll();
  const elapsed = performance.now() - started;
  const ready = m.states().filter((s) => s.status === 'ready').length;
  const tools = m.groups().reduce((n, g) => n + g.tools.length, 0);
  await m.close();
  report(elapsed, 'ms', `enabling 10 stdio servers (sandbox auto) until all tools are listed (${ready}/10 ready, ${tools} tools)`);
}

export async function run(): Promise<void> {
  await callOverhead();
  await tenServers();
}
