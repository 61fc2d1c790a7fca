// `tooldesk mcp logs NAME --start` starts NAME alone (the runtime's `mcp({ only })`), and
// `mcp list --status` every switched-on server but never a switched-off one. Each server counts
// its own starts in a file.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EVERYTHING, fixture } from '../../support/mcp-servers.ts';
import { runCli } from '../../support/run-cli.ts';
import { tempHomes } from '../../support/temp-homes.ts';

const homes = tempHomes();
afterAll(() => homes.removeAll());

const LAUNCH = fixture('counted-launch.mjs');
const starts = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);

describe('which MCP servers the CLI starts', () => {
  it('mcp logs NAME --start: that server alone; mcp list --status: the switched-on ones', async () => {
    const home = homes.make();
    mkdirSync(join(home, 'tools'), { recursive: true });
    const mark = (name: string) => join(home, `${name}-starts.txt`);
    const server = (name: string) => ({ command: process.execPath, args: [LAUNCH, EVERYTHING, 'stdio'], sandbox: 'off', env: { MARK_FILE: mark(name) } });
    const mcpServers = { a: server('a'), b: server('b'), off: server('off') };
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ mcpServers, groupDefaults: { a: true, b: true } }));

    const logs = await runCli(home, ['mcp', 'logs', 'a', '--start']);
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stdout.length).toBeGreaterThan(0);
    expect([starts(mark('a')), starts(mark('b')), starts(mark('off'))]).toEqual([1, 0, 0]);

    const status = await runCli(home, ['mcp', 'list', '--status']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^a {2}\(enabled, sandbox off\)[^\n]*\n {2}ready with \d+ tools/m);
    expect(status.stdout).toMatch(/^off {2}\(disabled, sandbox off\)/m);
    expect([starts(mark('a')), starts(mark('b')), starts(mark('off'))]).toEqual([2, 1, 0]);
  }, 120_000);
});
