// Issue #20 §4, "switched off means never started": every command that loads tools used to start
// every configured MCP server, switched-off ones included (an imported server is off until
// enabled). A server here counts its own starts in a file; a switched-off one must count none,
// whatever the command, and a call of its tool says how to switch it on.
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EVERYTHING, fixture } from '../support/mcp-servers.ts';
import { runCli } from '../support/run-cli.ts';
import { tempHomes } from '../support/temp-homes.ts';

const homes = tempHomes();
afterAll(() => homes.removeAll());

const LAUNCH = fixture('counted-launch.mjs');
const starts = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);

/** A home whose settings configure `servers` with their group switches. */
function homeWith(servers: Record<string, unknown>, groupDefaults: Record<string, boolean> = {}): { home: string; mark: string } {
  const home = homes.make();
  mkdirSync(join(home, 'tools'), { recursive: true });
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ mcpServers: servers, groupDefaults }));
  return { home, mark: join(home, 'starts.txt') };
}

describe('a switched-off MCP server is never started', () => {
  it('by tools list, tools check, tools run, mcp list --status or mcp logs --start (a server that hangs at initialize)', async () => {
    const { home, mark } = homeWith({});
    const server = { hang: { command: process.execPath, args: [LAUNCH], sandbox: 'off', env: { MARK_FILE: mark } } };
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ mcpServers: server, groupDefaults: {} }));
    /** Each command is timed alone: a started server would hold it for its 30 s start bound. */
    const timed = async (args: string[]) => {
      const began = Date.now();
      const result = await runCli(home, args);
      expect(Date.now() - began, args.join(' ')).toBeLessThan(20_000);
      return result;
    };
    const list = await timed(['tools', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('hang (switched off, not started; no tools known yet (it has not run))');
    expect((await timed(['tools', 'check'])).code).toBe(0);
    const run = await timed(['tools', 'run', 'hang__anything', '--yes']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('MCP server "hang" is switched off, so Tooldesk did not start it: switch it on with `tooldesk mcp enable hang`');
    expect((await timed(['mcp', 'list', '--status'])).code).toBe(0);
    const logs = await timed(['mcp', 'logs', 'hang', '--start']);
    expect(logs.stderr).toContain('is switched off');
    expect(starts(mark)).toBe(0);
  }, 120_000);

  it('a server switched off after it ran is listed from its last known tools, marked off, and not started', async () => {
    const { home, mark } = homeWith({});
    const entry = { command: process.execPath, args: [LAUNCH, EVERYTHING, 'stdio'], sandbox: 'off', env: { MARK_FILE: mark } };
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ mcpServers: { ev: entry }, groupDefaults: { ev: true } }));
    const on = await runCli(home, ['tools', 'run', 'ev__get-sum', '--args', '{"a": 1, "b": 2}', '--yes']);
    expect(on.stdout).toContain('3');
    expect(starts(mark)).toBe(1);

    expect((await runCli(home, ['mcp', 'disable', 'ev'])).code).toBe(0);
    const list = await runCli(home, ['tools', 'list']);
    expect(list.stdout).toMatch(/^ev \(switched off, not started; its tools as last listed \d{4}-\d\d-\d\d \d\d:\d\d UTC\) — mcp, mcp:ev$/m);
    expect(list.stdout).toContain('ev__get-sum');
    const json = JSON.parse((await runCli(home, ['tools', 'list', '--json'])).stdout) as { groups: Array<{ name: string; enabled: boolean; tools: Array<{ name: string; meta?: { mcp?: { switchedOff?: boolean } } }> }> };
    const ev = json.groups.find((g) => g.name === 'ev')!;
    expect(ev.enabled).toBe(false);
    expect(ev.tools.every((t) => t.meta?.mcp?.switchedOff === true)).toBe(true);

    const off = await runCli(home, ['tools', 'run', 'ev__get-sum', '--args', '{"a": 1, "b": 2}', '--yes']);
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('`tooldesk mcp enable ev`');
    expect(off.stdout).not.toContain('3');
    expect(starts(mark)).toBe(1);

    // Switched on but unable to start: the command says why, instead of only "no tool".
    const broken = { ev: { ...entry, args: ['/nonexistent/server.js'] } };
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ mcpServers: broken, groupDefaults: { ev: true } }));
    const failed = await runCli(home, ['tools', 'run', 'ev__get-sum', '--args', '{"a": 1, "b": 2}', '--yes']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('MCP server "ev" could not start');

    // An entry switched off in its own file ("disabled": true) stays off even with its group on.
    const disabledEntry = { ...entry, disabled: true };
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ mcpServers: { ev: disabledEntry }, groupDefaults: { ev: true } }));
    const still = await runCli(home, ['tools', 'run', 'ev__get-sum', '--args', '{"a": 1, "b": 2}', '--yes']);
    expect(still.code).toBe(1);
    expect(still.stderr).toContain('is switched off');
    expect(starts(mark)).toBe(1);
  }, 90_000);
});
