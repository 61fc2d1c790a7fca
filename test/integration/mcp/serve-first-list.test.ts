// Issue #36 item 9: `mcp serve` answered a host's first tools/list at once, with only the tools
// of the servers that happened to be ready (ReadVar and ListVars), so a host that lists once and
// calls got "Unknown tool". The first list now waits for the enabled MCP servers' starts in
// flight, each at most for its own `startTimeoutMs`, and the log names the servers left out. The
// "N tools" line on stderr waits the same way.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { spawnSync } from 'node:child_process';
import { CLI, connectStdio, serveHome, textOf, type ServeHome } from '../../support/mcp-serve-harness.ts';
import { fixture } from '../../support/mcp-servers.ts';

const SLOW = fixture('slow-start-server.mjs');
const slow = (delayMs: number, startTimeoutMs: number) => ({ command: process.execPath, args: [SLOW, String(delayMs)], sandbox: 'off', startTimeoutMs });

let serve: ServeHome | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  serve?.cleanup();
  serve = undefined;
});

/** A serve home whose settings switch on the MCP servers `servers` (and no tool folder group). */
function homeWith(servers: Record<string, unknown>): ServeHome {
  const home = serveHome([]);
  const groupDefaults = Object.fromEntries(Object.keys(servers).map((name) => [name, true]));
  writeFileSync(join(home.home, 'settings.json'), JSON.stringify({ mcpServers: servers, groupDefaults, permissionOverrides: { slowpoke__hello: { executionPolicy: 'auto' } } }));
  return home;
}

describe('mcp serve: the first tools/list waits for the MCP servers starting', () => {
  it("holds a slow server's tools, and the host's first call of one works", async () => {
    serve = homeWith({ slowpoke: slow(2500, 20_000) });
    const connected = await connectStdio(serve);
    client = connected.client;
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('slowpoke__hello');
    const result = await client.callTool({ name: 'slowpoke__hello', arguments: {} });
    expect(textOf(result)).toBe('hello after 2500 ms');
    expect(connected.stderr()).not.toContain('not ready');
    // The count on stderr is said once the server is up, so it counts what the host was offered.
    expect(connected.stderr()).toContain(`tooldesk mcp serve: ${tools.length} tools from slowpoke`);
  }, 60_000);

  it('answers within the bound of a server slower than its startTimeoutMs, without it, and the log names it', async () => {
    serve = homeWith({ slowpoke: slow(1500, 20_000), late: slow(30_000, 2000) });
    const connected = await connectStdio(serve);
    client = connected.client;
    const began = Date.now();
    const { tools } = await client.listTools();
    const took = Date.now() - began;
    const names = tools.map((t) => t.name);
    expect(names).toContain('slowpoke__hello');
    expect(names.some((n) => n.startsWith('late__'))).toBe(false);
    // Its bound (2 s from its start) and the spawn grace, far below its 30 s initialize.
    expect(took).toBeLessThan(10_000);
    expect(connected.stderr()).toMatch(/first tools\/list is answered without the tools of MCP server\(s\) not ready: late \(could not start: did not answer initialize within 2 s/);
    expect(connected.stderr()).not.toMatch(/not ready:[^\n]*slowpoke/);
  }, 60_000);

  it('ends at once when its host leaves, without waiting out a slow start to print its offer', () => {
    serve = homeWith({ late: slow(30_000, 20_000) });
    const began = Date.now();
    const run = spawnSync(process.execPath, [CLI, 'mcp', 'serve', '--root', serve.root], { env: serve.env, input: '', encoding: 'utf8', timeout: 25_000 });
    expect(run.error, run.stderr).toBeUndefined();
    expect(run.status, run.stderr).toBe(0);
    // Well inside the server's 20 s start bound; the offer line is never printed.
    expect(Date.now() - began).toBeLessThan(12_000);
    expect(run.stderr).not.toMatch(/mcp serve: \d+ tools from/);
  }, 40_000);
});
