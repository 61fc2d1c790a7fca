// Issue #36 item 10: `tools run SERVER__tool` started every switched-on MCP server and waited for
// all of them (2.6–3.3 s against 0.84 s with only that server). Now it starts only the server
// whose tools are named like the tool, and a file tool's run starts none. Every server here
// counts its own starts in its own file (counted-launch.mjs).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EVERYTHING, fixture } from '../../support/mcp-servers.ts';
import { repoRoot, runCli } from '../../support/run-cli.ts';
import { tempHomes } from '../../support/temp-homes.ts';

const homes = tempHomes();
afterAll(() => homes.removeAll());

const LAUNCH = fixture('counted-launch.mjs');
const SLOW = fixture('slow-start-server.mjs');
const starts = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);

/** `ev` (server-everything) and three servers slow to start, all switched on, each counting its starts. */
function home(): { home: string; marks: Record<string, string> } {
  const dir = homes.make();
  mkdirSync(join(dir, 'tools'), { recursive: true });
  const marks: Record<string, string> = {};
  const counted = (name: string, args: string[]) => {
    marks[name] = join(dir, `${name}.starts`);
    return { command: process.execPath, args: [LAUNCH, ...args], sandbox: 'off', env: { MARK_FILE: marks[name] } };
  };
  const servers = {
    ev: counted('ev', [EVERYTHING, 'stdio']),
    ...Object.fromEntries(['slow1', 'slow2', 'slow3'].map((name) => [name, counted(name, [SLOW, '3000'])])),
  };
  writeFileSync(join(dir, 'settings.json'), JSON.stringify({ mcpServers: servers, groupDefaults: Object.fromEntries(Object.keys(servers).map((n) => [n, true])) }));
  return { home: dir, marks };
}

describe('tools run starts only the MCP server its tool belongs to', () => {
  it('SERVER__tool launches that server once and no other', async () => {
    const { home: dir, marks } = home();
    const result = await runCli(dir, ['tools', 'run', 'ev__get-sum', '--args', '{"a": 2, "b": 3}', '--yes']);
    expect(result.stderr).not.toContain('ERROR');
    expect(result.stdout.trim()).toBe('The sum of 2 and 3 is 5.');
    expect(result.code).toBe(0);
    expect(Object.fromEntries(Object.entries(marks).map(([name, file]) => [name, starts(file)]))).toEqual({ ev: 1, slow1: 0, slow2: 0, slow3: 0 });
  }, 60_000);

  it("a slow server's tool waits for that server alone", async () => {
    const { home: dir, marks } = home();
    const result = await runCli(dir, ['tools', 'run', 'slow2__hello', '--yes']);
    expect(result.stdout.trim()).toBe('hello after 3000 ms');
    expect(Object.fromEntries(Object.entries(marks).map(([name, file]) => [name, starts(file)]))).toEqual({ ev: 0, slow1: 0, slow2: 1, slow3: 0 });
  }, 60_000);

  it('a file tool starts no MCP server', async () => {
    const { home: dir, marks } = home();
    const result = await runCli(dir, ['tools', 'run', 'script_json_pick', '--root', join(repoRoot, 'resources/examples'), '--args', '{"json": "{\\"a\\": [1, 2]}", "path": "a.1"}', '--yes']);
    expect(JSON.parse(result.stdout)).toEqual({ found: true, value: 2 });
    expect(result.code).toBe(0);
    expect(Object.values(marks).map(starts)).toEqual([0, 0, 0, 0]);
  }, 60_000);

  it('a switched-off server is still not started when its tool is named', async () => {
    const { home: dir, marks } = home();
    const settings = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'));
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ ...settings, groupDefaults: { ...settings.groupDefaults, ev: false } }));
    const result = await runCli(dir, ['tools', 'run', 'ev__get-sum', '--args', '{"a": 2, "b": 3}', '--yes']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('"ev" is switched off');
    expect(Object.values(marks).map(starts)).toEqual([0, 0, 0, 0]);
  }, 60_000);
});
