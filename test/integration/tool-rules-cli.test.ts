// Tool rules, tool sets and the audit log through the real CLI: `rules`, `toolset`, `audit`,
// `tools run` (deny beats --yes) and `mcp serve` (a denied call is an MCP error result).
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../support/run-cli.ts';
import { tempHomes } from '../support/temp-homes.ts';
import { connectStdio, serveHome } from '../support/mcp-serve-harness.ts';

const homes = tempHomes();
afterAll(() => homes.removeAll());

/** A home with the read_file fixture (always_allow) and a secret in ~/.ssh; HOME is the same folder. */
function readFileHome(): { home: string; env: Record<string, string> } {
  const home = homes.make();
  mkdirSync(join(home, 'tools'), { recursive: true });
  cpSync(join(repoRoot, 'test/fixtures/tools/rules-read-file/read_file'), join(home, 'tools/read_file'), { recursive: true });
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh/id_rsa'), 'PRIVATE-KEY-TEXT');
  mkdirSync(join(home, 'projects'));
  writeFileSync(join(home, 'projects/notes.txt'), 'notes text');
  return { home, env: { HOME: home } };
}

describe('tooldesk rules', () => {
  it('adds, lists, tests and removes rules; a bad regex is refused naming the field', async () => {
    const { home, env } = readFileHome();
    const add = await runCli(home, ['rules', 'add', 'allow', 'browser_navigate', '--where', 'url~http://localhost:*'], '', env);
    expect(add.stdout).toBe('Added rule 1: allow browser_navigate where url ~ http://localhost:*\n');
    await runCli(home, ['rules', 'add', 'deny', '*', '--where', '~~/.ssh/**', '--reason', 'keys stay private'], '', env);
    const first = await runCli(home, ['rules', 'add', 'ask', 'shell', '--where', 'command=~\\brm\\b', '--at', '1'], '', env);
    expect(first.stdout).toContain('Added rule 1: ask shell where command =~ /\\brm\\b/');
    const bad = await runCli(home, ['rules', 'add', 'deny', 'x', '--where', 'a=~('], '', env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/where\[0\]\.regex: invalid regular expression/);
    const list = await runCli(home, ['rules', 'list'], '', env);
    expect(list.stdout.trimEnd().split('\n')).toEqual([
      '  1  ask shell where command =~ /\\brm\\b/',
      '  2  allow browser_navigate where url ~ http://localhost:*',
      '  3  deny * where (any value) ~ ~/.ssh/** — keys stay private',
    ]);
    expect(JSON.parse((await runCli(home, ['rules', 'list', '--json'], '', env)).stdout).map((r: { action: string }) => r.action)).toEqual(['ask', 'allow', 'deny']);
    const test = (tool: string, args: unknown) => runCli(home, ['rules', 'test', tool, '--args', JSON.stringify(args)], '', env);
    expect((await test('browser_navigate', { url: 'http://localhost:5173/x' })).stdout).toBe('allow by rule 2\n');
    // deny wins over the allow that came first
    // …and the path argument is shown in the form the rule matched.
    expect((await test('browser_navigate', { url: 'http://localhost:1/', file: '~/projects/../.ssh/id_rsa' })).stdout).toBe(
      `deny by rule 3: keys stay private\n  file: "~/projects/../.ssh/id_rsa" → ${home}/.ssh/id_rsa  (rule 3 matched ${home}/.ssh/id_rsa)\n`,
    );
    expect((await test('shell', { command: 'rm -rf /' })).stdout).toBe('ask by rule 1\n');
    expect((await test('other', {})).stdout).toBe('none: no rule matches other; its policy decides\n');
    const removed = await runCli(home, ['rules', 'remove', '1'], '', env);
    expect(removed.stdout).toContain('Removed rule 1: ask shell');
    expect((await runCli(home, ['rules', 'remove', '9'], '', env)).stderr).toContain('there is no rule 9 (there are 2 rules)');
    const stored = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as { toolRules: unknown[] };
    expect(stored.toolRules).toHaveLength(2);
  }, 180_000);

  it('denies through `tools run` even with --yes, tells why, runs what no rule stops, and logs both', async () => {
    const { home, env } = readFileHome();
    await runCli(home, ['rules', 'add', 'deny', 'script_*', '--where', 'path^=~/.ssh', '--reason', 'keys stay private'], '', env);
    const denied = await runCli(home, ['tools', 'run', 'script_read_file', '--yes', '--args', JSON.stringify({ path: '~/projects/../.ssh/id_rsa' })], '', env);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('Not run: Denied by rule 1: keys stay private. `tooldesk rules test script_read_file` shows which rule decides it.');
    expect(denied.stdout + denied.stderr).not.toContain('PRIVATE-KEY-TEXT');
    const allowed = await runCli(home, ['tools', 'run', 'script_read_file', '--args', JSON.stringify({ path: join(home, 'projects/notes.txt') })], '', env);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('notes text');
    const audit = await runCli(home, ['audit', '--json'], '', env);
    const entries = audit.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => [e.tool, e.decision, e.by, e.detail])).toEqual([
      ['script_read_file', 'denied', 'rule', 'rule 1'],
      ['script_read_file', 'allowed', 'policy', 'policy auto'],
    ]);
    expect(entries[0]).toMatchObject({ status: 'EXECUTION_REJECTED', level: 'default', argsHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // Arguments are never written, only their hash.
    expect(readFileSync(join(home, 'audit', `${String(entries[0]!.at).slice(0, 10)}.jsonl`), 'utf8')).not.toContain('.ssh');
    const text = await runCli(home, ['audit', '--tool', 'script_read_file', '--decision', 'denied'], '', env);
    expect(text.stdout).toMatch(/denied\s+script_read_file {2}by rule 1 {2}level default {2}→ EXECUTION_REJECTED/);
    const future = await runCli(home, ['audit', '--since', '2999-01-01'], '', env);
    expect(future.stdout).toBe('');
    expect(future.stderr).toContain('no decisions logged that match');
  }, 180_000);

  it('keeps tool sets: add, list, replace, remove; chat --toolset refuses an unknown set', async () => {
    const { home, env } = readFileHome();
    const added = await runCli(home, ['toolset', 'add', 'reading', 'group:script', 'tool:ReadVar', '--level', 'read-only-auto'], '', env);
    expect(added.stdout).toBe('Added tool set reading: group script, ReadVar; level read-only-auto\n');
    expect((await runCli(home, ['toolset', 'add', 'bad name', 'x'], '', env)).code).toBe(2);
    expect((await runCli(home, ['toolset', 'add', 'x', 'y', '--level', 'sometimes'], '', env)).stderr).toContain('--level must be one of ask, default, read-only-auto, trusted');
    expect((await runCli(home, ['toolset', 'list'], '', env)).stdout).toBe('reading: group script, ReadVar; level read-only-auto\n');
    expect(JSON.parse((await runCli(home, ['toolset', 'list', '--json'], '', env)).stdout)).toEqual([{ name: 'reading', groups: ['script'], tools: ['ReadVar'], level: 'read-only-auto' }]);
    const extra = await runCli(home, ['toolset', 'list', 'reading'], '', env);
    expect([extra.code, extra.stderr]).toEqual([2, expect.stringContaining('unexpected argument "reading"')]);
    const chat = await runCli(home, ['chat', '--toolset', 'nope', 'hi'], '', env);
    expect(chat.code).toBe(1);
    expect(chat.stderr).toContain('no tool set "nope" (there are: reading)');
    expect((await runCli(home, ['chat', '--permissions', 'lax', 'hi'], '', env)).stderr).toContain('--permissions must be one of ask, default, read-only-auto, trusted');
    expect((await runCli(home, ['toolset', 'remove', 'reading'], '', env)).stdout).toBe('Removed tool set reading\n');
    expect((await runCli(home, ['toolset', 'list'], '', env)).stdout).toContain('No tool sets');
  }, 180_000);
});

describe('mcp serve with rules', () => {
  it('answers a denied call with an MCP error result carrying the reason; --toolset serves exactly the set', async () => {
    const serve = serveHome();
    try {
      const settingsFile = join(serve.home, 'settings.json');
      const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
      settings.toolRules = [{ action: 'deny', tool: 'word_count', where: [{ path: 'text', regex: 'forbidden' }], reason: 'no forbidden words' }];
      settings.toolSets = [{ name: 'counting', tools: ['word_count'] }];
      writeFileSync(settingsFile, JSON.stringify(settings));
      const { client, transport } = await connectStdio(serve);
      try {
        const denied = await client.callTool({ name: 'word_count', arguments: { text: 'a forbidden word' } });
        expect(denied.isError).toBe(true);
        expect(JSON.stringify(denied.content)).toContain('Denied by rule 1: no forbidden words');
        const fine = await client.callTool({ name: 'word_count', arguments: { text: 'three small words' } });
        expect(fine.isError).toBeFalsy();
      } finally {
        await transport.close();
      }
      const set = await connectStdio(serve, { args: ['--toolset', 'counting'] });
      try {
        const names = (await set.client.listTools()).tools.map((t) => t.name).sort();
        expect(names.filter((n) => n !== 'ReadVar' && n !== 'ListVars')).toEqual(['word_count']);
      } finally {
        await set.transport.close();
      }
    } finally {
      serve.cleanup();
    }
  }, 180_000);
});
