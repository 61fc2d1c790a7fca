// The examples and templates through the real `tooldesk` CLI code (in process, real runner):
// `tools new` scaffolds each format, `tools check` passes, `tools run` runs every example.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../electron/cli/main.ts';
import { NEW_TOOL_FORMATS } from '../../shared/new-tool-formats.ts';
import { commandExists } from '../../electron/runtime/sources/discovery/missing-interpreter.ts';

const home = () => mkdtempSync(join(tmpdir(), 'td-'));
/** Loading Python/PowerShell modules writes caches beside them: work on copies, not resources/. */
function copied(dir: string): string {
  const target = join(home(), 'copy');
  cpSync(dir, target, { recursive: true });
  return target;
}
const EXAMPLES = copied(fileURLToPath(new URL('../../resources/examples/', import.meta.url)));
const TEMPLATES = copied(fileURLToPath(new URL('../../resources/templates/', import.meta.url)));

async function cli(argv: string[], home: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (c) => out.push(String(c)));
  stderr.on('data', (c) => err.push(String(c)));
  const stdin = new PassThrough();
  stdin.end();
  const env = { ...process.env, TOOLDESK_HOME: home };
  const code = await main(argv, { stdout, stderr, stdin, env });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

async function runJson(name: string, args: Record<string, unknown>, root = EXAMPLES) {
  const result = await cli(['tools', 'run', name, '--root', root, '--args', JSON.stringify(args), '--yes', '--json'], home());
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { status: string; data?: unknown; formattedText?: string; error?: string };
}

describe('examples through `tooldesk tools run`', () => {
  it('runs the script.py example', async () => {
    expect(await runJson('script_word_stats', { text: 'the cat and the hat', top: 1 })).toMatchObject({ status: 'SUCCESS', data: { words: 5, lines: 1, characters: 19, top: [['the', 2]] } });
  });

  it('runs the script.js example', async () => {
    expect(await runJson('script_json_pick', { json: '{"a": {"b": [1, 2]}}', path: 'a.b.1' })).toMatchObject({ status: 'SUCCESS', data: { found: true, value: 2 } });
  });

  it('runs the three-layer example with its return.json template', async () => {
    expect(await runJson('unit_convert', { value: 10, from_unit: 'km', to_unit: 'mi' })).toMatchObject({ status: 'SUCCESS', data: '[unit_convert] 10 km = 6.2137 mi\n' });
  });

  it('runs the TypeScript module example', async () => {
    expect(await runJson('countdown', { from: 3, interval_ms: 5 })).toMatchObject({ status: 'SUCCESS', formattedText: 'Lift-off after 3 steps' });
  });

  it("runs the seed's own examples unchanged", async () => {
    const fixtures = fileURLToPath(new URL('../fixtures/tools/', import.meta.url));
    const threeLayer = join(fixtures, 'three-layer-seed');
    expect(await runJson('calc', { a: 6, op: '*', b: 7 }, threeLayer)).toMatchObject({ status: 'SUCCESS', data: '[calc] 结果: 42\n' });
    expect(await runJson('echo', { text: 'hi "there" {x}' }, threeLayer)).toMatchObject({ status: 'SUCCESS', data: 'hi "there" {x}\n' });
    expect(await runJson('greet', {}, threeLayer)).toMatchObject({ status: 'SUCCESS', data: '你好!\n' });
    expect(await runJson('greet', { name: 'Ada' }, threeLayer)).toMatchObject({ status: 'SUCCESS', data: '你好,Ada!\n' });
    expect(await runJson('text_len', { text: 'hello' }, threeLayer)).toMatchObject({ status: 'SUCCESS', data: '[text_len] 字符数: 5\n' });
    expect(await runJson('script_calculate_rsi', { symbol: 'AAPL' }, join(fixtures, 'script-seed'))).toMatchObject({ status: 'SUCCESS', data: { symbol: 'AAPL', period: 14, rsi: 50 } });
    expect(await runJson('script_calculate_rsi_js', { symbol: 'AAPL' }, join(fixtures, 'script-seed'))).toMatchObject({ status: 'SUCCESS', data: { symbol: 'AAPL', period: 14 } });
  });

  it("runs the seed's repo_stats module unchanged in the working folder from settings", async () => {
    const h = home();
    const repo = join(h, 'repo');
    execFileSync('git', ['init', '-q', repo]);
    for (const file of ['a.ts', 'b.ts', 'c.md']) writeFileSync(join(repo, file), '');
    execFileSync('git', ['-C', repo, 'add', '.']);
    expect((await cli(['config', 'set', 'workingDir', repo], h)).code).toBe(0);
    const result = await cli(['tools', 'run', 'repo_stats', '--root', fileURLToPath(new URL('../fixtures/tools/module-repo-stats/', import.meta.url)), '--args', '{"glob":"*.ts"}', '--yes', '--json'], h);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'SUCCESS', formattedText: 'Found 2 files', data: { details: { count: 2, sample: ['a.ts', 'b.ts'] } } });
  });
});

describe('templates through `tooldesk tools new` and `tools check`', () => {
  it.each(NEW_TOOL_FORMATS)('template %s passes `tools check` as shipped and when scaffolded', async (format) => {
    const shipped = await cli(['tools', 'check', '--root', join(TEMPLATES, format)], home());
    expect(shipped.code, shipped.stdout).toBe(0);
    // The only warning a template may get: PowerShell is not installed (as on this machine).
    const pwshMissing = format === 'powershell' && !commandExists('pwsh');
    expect(shipped.stdout).toContain(`1 tool(s) in 1 group(s); 0 error(s), ${pwshMissing ? 1 : 0} warning(s)`);
    if (pwshMissing) expect(shipped.stdout).toContain('PowerShell (pwsh) is not installed: these tools are listed but cannot run [interpreter-missing]');
    const h = home();
    const root = join(h, 'tools');
    const name = `my_${format.replace('-', '_')}`;
    const created = await cli(['tools', 'new', format, name, '--root', root], h);
    expect(created.code, created.stderr).toBe(0);
    const checked = await cli(['tools', 'check', '--root', root], h);
    expect(checked.code, checked.stdout).toBe(0);
    expect(checked.stdout).toContain('1 tool(s) in 1 group(s); 0 error(s)');
  });

  it('writes into the first tools root from settings, where `tools list` finds it', async () => {
    const h = home();
    const root = join(h, 'my-tools');
    expect((await cli(['config', 'set', 'toolRoots', JSON.stringify([root])], h)).code).toBe(0);
    const created = await cli(['tools', 'new', 'module-ts', 'from_settings'], h);
    expect(created.code, created.stderr).toBe(0);
    expect(existsSync(join(root, 'from_settings.ts'))).toBe(true);
    const listed = await cli(['tools', 'list'], h);
    expect(listed.stdout).toContain(`from_settings (disabled) — module, ${join(root, 'from_settings.ts')}`);
  });

  it('refuses bad names, unknown formats and existing tools', async () => {
    const h = home();
    const root = join(h, 'tools');
    expect((await cli(['tools', 'new', 'three-layer', '../evil', '--root', root], h)).code).toBe(2);
    expect((await cli(['tools', 'new', 'script-py', 'Bad Name', '--root', root], h)).code).toBe(2);
    expect((await cli(['tools', 'new', 'cobol', 'x', '--root', root], h)).code).toBe(2);
    expect((await cli(['tools', 'new', 'three-layer', 'twice', '--root', root], h)).code).toBe(0);
    const again = await cli(['tools', 'new', 'three-layer', 'twice', '--root', root], h);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect(existsSync(join(h, 'evil'))).toBe(false);
    expect(JSON.parse(readFileSync(join(root, 'twice', 'definition.json'), 'utf8')).id).toBe('twice');
  });

  it('refuses a name a loaded tool already has (the README example beside the examples), as the app does', async () => {
    const h = home();
    const root = join(h, 'tools');
    cpSync(join(EXAMPLES, 'text_stats.py'), join(root, 'text_stats.py'));
    // text_stats.py defines word_count: a three-layer word_count would be the one not loaded.
    const clash = await cli(['tools', 'new', 'three-layer', 'word_count'], h);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain(`tooldesk tools new: a tool named "word_count" already exists (${join(root, 'text_stats.py')}); choose another name`);
    expect(existsSync(join(root, 'word_count'))).toBe(false);
    // The README's example name is free beside every example.
    cpSync(EXAMPLES, root, { recursive: true });
    const made = await cli(['tools', 'new', 'three-layer', 'repeat_text'], h);
    expect(made.code, made.stderr).toBe(0);
    const checked = await cli(['tools', 'check'], h);
    expect(checked.stdout).not.toContain('[name-conflict]');
    const ran = await cli(['tools', 'run', 'repeat_text', '--args', '{"text": "hi", "repeat": 2}', '--yes'], h);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('[repeat_text] hi hi');
  });
});

describe('`tooldesk tools run` and the app\'s switches', () => {
  it('says on stderr when the group is off, still runs the named tool, and asks nothing about sending its result to a model', async () => {
    const h = home();
    const overrides = { script_json_pick: { executionPolicy: 'auto', resultApprovalPolicy: 'always' } };
    expect((await cli(['config', 'set', 'permissionOverrides', JSON.stringify(overrides)], h)).code).toBe(0);
    const args = ['tools', 'run', 'script_json_pick', '--root', EXAMPLES, '--args', JSON.stringify({ json: '{"a": 1}', path: 'a' })];
    // stdin is closed: a question on the terminal would be answered "no".
    const off = await cli(args, h);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toContain('"value":1');
    expect(off.stderr).toContain('the group "script" is switched off in Tooldesk');
    expect(off.stderr).toContain('`tooldesk tools enable script` switches it on');
    expect(off.stderr).not.toMatch(/to the model/);
    expect((await cli(['config', 'set', 'groupDefaults', '{"script": true}'], h)).code).toBe(0);
    const on = await cli(args, h);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stderr).not.toContain('switched off');
  });
});
