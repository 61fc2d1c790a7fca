// `tooldesk tools list|check|run`, spawning the real CLI (node electron/cli/bin.mjs).
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../electron/cli/main.ts';
import { copyFixtures, EXAMPLES, tmp } from '../support/module-tool-fixtures.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(REPO, 'electron/cli/bin.mjs');

interface Cli {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], options: { home?: string; input?: string; env?: Record<string, string>; uid?: number } = {}): Cli {
  const home = options.home ?? tmp();
  const env = { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: home, ...options.env };
  const [command, argv] = options.uid === undefined
    ? [process.execPath, [BIN, ...args]]
    : ['setpriv', [`--reuid=${options.uid}`, `--regid=${options.uid}`, '--clear-groups', process.execPath, BIN, ...args]];
  const run = spawnSync(command, argv, { cwd: REPO, env, input: options.input ?? '', encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The shipped examples, copied: loading writes caches beside the scripts. */
function examplesRoot(): string {
  const root = tmp();
  for (const name of readdirSync(EXAMPLES)) if (/\.(py|ps1)$/.test(name)) cpSync(join(EXAMPLES, name), join(root, name));
  return root;
}

describe('tooldesk tools', () => {
  it('list shows the examples with group, format, file, policies and schema (text and --json)', () => {
    const root = examplesRoot();
    const text = cli(['tools', 'list', '--root', root]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`text_stats (disabled) — python, ${join(root, 'text_stats.py')}`);
    expect(text.stdout).toContain('word_count  [run: auto, result: never]');
    expect(text.stdout).toContain('(text: string, unit?: "words"|"characters"|"lines")');
    expect(text.stdout).toContain(`disk_usage (disabled) — powershell, ${join(root, 'disk_usage.ps1')}`);
    expect(text.stdout).toContain('Get-FolderSize  [run: ask-once, result: never]');
    const json = cli(['tools', 'list', '--root', root, '--json']);
    const listed = JSON.parse(json.stdout) as { groups: { name: string; tools: { name: string; format: string; source: { file: string }; permission: unknown; parameters: { required?: string[] } }[] }[] };
    const tools = Object.fromEntries(listed.groups.flatMap((g) => g.tools.map((t) => [t.name, { ...t, group: g.name }])));
    expect(Object.keys(tools).sort()).toEqual(['Get-FolderSize', 'top_words', 'word_count']);
    expect(tools.top_words).toMatchObject({ group: 'text_stats', format: 'python', source: { file: join(root, 'text_stats.py') }, permission: { executionPolicy: 'auto', resultApprovalPolicy: 'never' }, parameters: { required: ['text'] } });
    expect(tools['Get-FolderSize']).toMatchObject({ group: 'disk_usage', format: 'powershell', parameters: { required: ['Path'] } });
  });

  it('check passes on the examples and fails with file:line:col and hints on broken fixtures', () => {
    const good = cli(['tools', 'check', '--root', examplesRoot()]);
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/3 tool\(s\) in 2 group\(s\); 0 error\(s\)/);
    const root = copyFixtures('py-syntax-error', 'py-non-utf8', 'py-empty-module', 'ps-syntax-error', 'py-duplicate-names', 'py-google-weather');
    const bad = cli(['tools', 'check', '--root', root]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(`${join(root, 'broken.py')}:6:11: error: Syntax error: '(' was never closed [syntax-error]\n  hint: Fix the syntax error`);
    expect(bad.stdout).toContain(`${join(root, 'latin.py')}:4:16: error: The file is not valid UTF-8 (byte 0xe9) [not-utf8]\n  hint: Save the file as UTF-8.`);
    expect(bad.stdout).toContain(`${join(root, 'broken.ps1')}:4:1: error: Syntax error`);
    expect(bad.stdout).toContain(`${join(root, 'nothing.py')}:1: warning: No tools`);
    expect(bad.stdout).toMatch(new RegExp(`${join(root, 'beta.py')}:4: warning: Tool "shared_name" is also defined in ${join(root, 'alpha.py')}`));
    const json = JSON.parse(cli(['tools', 'check', '--root', root, '--json']).stdout) as { errors: number; diagnostics: unknown[] };
    expect(json.errors).toBe(3);
  });

  it('run prints the text the model sees; --json prints the whole result; logs go to stderr', () => {
    const root = examplesRoot();
    const run = cli(['tools', 'run', 'top_words', '--root', root, '--args', '{"text": "b a b c b a", "limit": 2}']);
    expect(run).toMatchObject({ code: 0, stdout: 'b: 3\na: 2\n' });
    const json = cli(['tools', 'run', 'word_count', '--root', root, '--args', '{"text": "one two three"}', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'SUCCESS', data: { unit: 'words', count: 3 }, toolName: 'word_count' });
    const noisy = cli(['tools', 'run', 'noisy', '--root', copyFixtures('py-runtime-behaviour'), '--args', '{"n": 1}', '--yes']);
    expect(noisy.code).toBe(0);
    expect(JSON.parse(noisy.stdout)).toEqual({ n: 1, text: 'ünïcødé' });
    expect(noisy.stderr).toContain('line 0');
  });

  it('run asks for approval on the terminal: y runs, n rejects, --yes approves', () => {
    const root = copyFixtures('py-google-weather');
    const args = ['tools', 'run', 'compare', '--root', root, '--args', '{"cities": ["Paris", "Oslo"]}'];
    const yes = cli(args, { input: 'y\n' });
    expect(yes.code).toBe(0);
    expect(yes.stdout).toBe('Paris vs Oslo by temperature\n');
    expect(yes.stderr).toContain('Run compare {"cities":["Paris","Oslo"]}?');
    const no = cli(args, { input: 'n\n' });
    expect(no.code).toBe(1);
    expect(no.stderr).toContain('Not run: you did not allow it.');
    const auto = cli([...args, '--yes']);
    expect(auto.code).toBe(0);
    expect(auto.stderr).toContain('approved by --yes');
  });

  it('run reports bad arguments, unknown tools and tool errors with a non-zero exit', () => {
    const root = copyFixtures('py-google-weather', 'py-runtime-behaviour');
    const unknown = cli(['tools', 'run', 'get_forcast', '--root', root]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no tool "get_forcast".*Did you mean: get_forecast/);
    const invalid = cli(['tools', 'run', 'get_forecast', '--root', root, '--args', '{"days": 2}', '--yes']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/city/);
    const fails = cli(['tools', 'run', 'fails', '--root', root, '--args', '{"message": "nope"}', '--yes']);
    expect(fails.code).toBe(1);
    expect(fails.stderr).toContain('ValueError: nope');
    expect(fails.stderr).toMatch(/^ERROR: ValueError: nope$/m); // the status once, not "ERROR: Error: …"
  });

  it('without --root uses the settings roots, else TOOLDESK_HOME/tools', () => {
    const home = tmp();
    mkdirSync(join(home, 'tools'));
    cpSync(join(EXAMPLES, 'text_stats.py'), join(home, 'tools', 'text_stats.py'));
    expect(cli(['tools', 'list'], { home }).stdout).toContain('text_stats (disabled) — python');
    const other = copyFixtures('py-google-weather');
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ toolRoots: [other] }));
    const listed = cli(['tools', 'list'], { home });
    expect(listed.stdout).toContain('weather (disabled) — python');
    expect(listed.stdout).not.toContain('text_stats');
  });

  it('keeps caches under TOOLDESK_HOME/cache when the tools folder is read-only', () => {
    const root = copyFixtures('py-google-weather');
    const home = tmp();
    chmodSync(home, 0o777);
    chmodSync(root, 0o555);
    const asRoot = process.getuid?.() === 0;
    // root writes anywhere: run the CLI as `nobody` so the folder really is read-only to it.
    if (asRoot) console.log('running as root: the read-only check runs the CLI as nobody (setpriv) with /usr/bin/python3');
    const options = asRoot ? { home, uid: 65534, env: { PATH: '/usr/bin:/bin' } } : { home };
    if (asRoot) writeFileSync(join(home, 'settings.json'), JSON.stringify({ pythonPath: '/usr/bin/python3' }));
    if (asRoot) chmodSync(join(home, 'settings.json'), 0o666);
    const first = cli(['tools', 'list', '--root', root, '--json'], options);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).groups.map((g: { name: string }) => g.name)).toEqual(['weather']);
    expect(existsSync(join(root, 'weather.tool.json'))).toBe(false);
    expect(existsSync(join(home, 'cache', 'modules', root, 'weather.tool.json'))).toBe(true);
    const again = cli(['tools', 'check', '--root', root], options);
    expect(again.code).toBe(0);
  });

  it('prints its usage and rejects bad input with exit 2 (in-process: no tools are loaded)', async () => {
    const run = async (argv: string[]) => {
      let stdout = '';
      let stderr = '';
      const sink = (write: (text: string) => void) => ({ write: (chunk: string) => (write(String(chunk)), true) }) as unknown as NodeJS.WritableStream;
      const io = { stdout: sink((t) => (stdout += t)), stderr: sink((t) => (stderr += t)), stdin: process.stdin, env: { ...process.env, TOOLDESK_HOME: tmp() } };
      return { code: await main(argv, io), stdout, stderr };
    };
    const help = await run(['tools', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/list .*\n.*check .*\n.*run /);
    expect((await run(['tools', 'run', '--help'])).stdout).toContain('Usage: tooldesk tools run NAME');
    expect((await run(['tools', 'frobnicate'])).code).toBe(2);
    const badJson = await run(['tools', 'run', 'x', '--args', '{bad']);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain('--args is not valid JSON');
    expect((await run(['tools', 'run', 'x', '--args', '[1]'])).code).toBe(2);
  });
});

describe('the tooldesk command (issue 2 skeleton)', () => {
  it('runs from package.json `bin` through a symlink, from any folder, with --version and help', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string; bin: { tooldesk: string }; scripts: { tooldesk: string } };
    expect(pkg.scripts.tooldesk).toBe(`node ${pkg.bin.tooldesk}`);
    // npm installs a bin as a symlink (node_modules/.bin/tooldesk); run it as such, elsewhere.
    const elsewhere = tmp();
    const link = join(elsewhere, 'tooldesk');
    symlinkSync(join(REPO, pkg.bin.tooldesk), link);
    const env = { PATH: process.env.PATH!, HOME: elsewhere, TOOLDESK_HOME: join(elsewhere, 'home') };
    const version = spawnSync(link, ['--version'], { cwd: elsewhere, env, encoding: 'utf8', timeout: 60_000 });
    expect(version.stderr).toBe('');
    expect(version.stdout.trim()).toBe(pkg.version);
    expect(version.status).toBe(0);
    const help = spawnSync(link, ['help'], { cwd: elsewhere, env, encoding: 'utf8', timeout: 60_000 });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: tooldesk <command>[\s\S]*tools /);
  });
});
