import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings.ts';
import { discoverTools } from '../../../electron/runtime/sources/discovery/discover-tools.ts';
import { toolRootsFromSettings } from '../../../electron/runtime/sources/discovery/tool-roots.ts';
import { copyFixtureCase, TOOL_FIXTURES, toolsByName } from '../../support/fixture-entries.ts';
import { makeTmpHome, testSourceContext, testToolContext } from '../../support/tool-source-context.ts';

describe('discovery across roots', () => {
  it('lets the earlier root win a name clash across formats (Python too), names both files, and keeps built-in names', async () => {
    const a = copyFixtureCase('roots-clash-a');
    const b = copyFixtureCase('roots-clash-b');
    const ctx = testSourceContext();
    const { groups, diagnostics } = await discoverTools([a, b], ctx);
    const tools = toolsByName(groups);
    expect(tools.get('hello')!.source).toMatchObject({ format: 'three-layer', file: join(a, 'hello/definition.json') });
    expect(await tools.get('hello')!.execute({}, testToolContext())).toEqual({ status: 'SUCCESS', data: 'hello from root a\n' });
    const clashes = diagnostics.filter((d) => d.code === 'name-conflict');
    const moduleClash = clashes.find((d) => d.file === join(b, 'hello.ts'))!;
    expect(moduleClash.message).toBe(`Tool name "hello" conflicts with existing tool from ${join(a, 'hello/definition.json')}`);
    const pythonClash = clashes.find((d) => d.file === join(b, 'pyclash.py'));
    expect(pythonClash?.message).toContain('Tool name "hello" conflicts with existing tool');
    expect(tools.get('py_only')).toBeDefined();
    expect(clashes.find((d) => d.file === join(a, 'read_var_taker/definition.json'))!.message).toBe('Tool name "ReadVar" conflicts with existing tool (built in)');
    expect(tools.has('ReadVar')).toBe(false);
    // same group name from two roots → one group
    expect(groups.filter((g) => g.name === 'shared').map((g) => g.tools.map((t) => t.definition.function.name))).toEqual([['hello', 'other']]);
  });

  it('says in the hint why the kept tool won: same file, same root, or an earlier root', async () => {
    const first = makeTmpHome();
    const second = makeTmpHome();
    writeFileSync(join(first, 'dup.ts'), 'export default () => [1, 2].map((n) => ({ name: "twin", description: String(n), execute: async () => String(n) }));\n');
    writeFileSync(join(first, 'also.ts'), 'export default () => ({ name: "shared_name", execute: async () => "also" });\n');
    writeFileSync(join(first, 'zz.ts'), 'export default () => ({ name: "shared_name", execute: async () => "zz" });\n');
    writeFileSync(join(second, 'late.ts'), 'export default () => ({ name: "twin", execute: async () => "late" });\n');
    const { groups, diagnostics } = await discoverTools([first, second], testSourceContext());
    expect(await toolsByName(groups).get('twin')!.execute({}, testToolContext())).toMatchObject({ data: '1' });
    const hints = diagnostics.filter((d) => d.code === 'name-conflict').map((d) => [d.file, d.hint]);
    expect(hints).toEqual([
      [join(first, 'dup.ts'), 'This file defines two tools named "twin"; rename one (the first one is loaded).'],
      [join(first, 'zz.ts'), `Rename one of them; ${join(first, 'also.ts')} is loaded because it sorts first in the same root.`],
      [join(second, 'late.ts'), `Rename one of them; ${join(first, 'dup.ts')} is loaded because its root comes first.`],
    ]);
  });

  it('switches the order: a root listed first always wins', async () => {
    const a = copyFixtureCase('roots-clash-a');
    const b = copyFixtureCase('roots-clash-b');
    const { groups } = await discoverTools([b, a], testSourceContext());
    expect(toolsByName(groups).get('hello')!.source?.format).toBe('module');
  });

  it('loads every format side by side from one root', async () => {
    const root = makeTmpHome();
    for (const name of ['calculate_rsi']) symlinkSync(join(TOOL_FIXTURES, 'script-seed', name), join(root, name));
    symlinkSync(join(TOOL_FIXTURES, 'three-layer-seed', 'calc'), join(root, 'calc'));
    symlinkSync(join(TOOL_FIXTURES, 'module-shapes', 'early_tool.js'), join(root, 'early_tool.js'));
    cpSync(join(TOOL_FIXTURES, 'roots-clash-b', 'pyclash.py'), join(root, 'pyclash.py'));
    writeFileSync(join(root, 'notes.md'), '# not a tool');
    writeFileSync(join(root, 'meta.json'), '{}');
    const { groups, diagnostics } = await discoverTools([root], testSourceContext());
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(groups.map((g) => g.name).sort()).toEqual(['custom', 'early_tool', 'pyclash', 'script']);
  });

  it('reports FIFOs and devices named like tool files instead of blocking on them', async () => {
    const root = makeTmpHome();
    for (const dir of ['fifo_script', 'fifo_three', 'fifo_module']) mkdirSync(join(root, dir));
    execFileSync('mkfifo', [join(root, 'fifo_script', 'tool.json'), join(root, 'fifo_three', 'execution.py'), join(root, 'fifo_module', 'index.ts')]);
    writeFileSync(join(root, 'fifo_script', 'script.py'), 'print(1)');
    writeFileSync(join(root, 'fifo_three', 'definition.json'), '{"id": "fifo_three"}');
    symlinkSync('/dev/zero', join(root, 'zero.ts'));
    const { groups, diagnostics } = await discoverTools([root], testSourceContext());
    expect(groups).toEqual([]);
    const unreadable = diagnostics.filter((d) => d.code === 'unreadable').map((d) => d.file).sort();
    expect(unreadable).toEqual([join(root, 'fifo_module', 'index.ts'), join(root, 'fifo_script', 'tool.json'), join(root, 'fifo_three', 'execution.py'), join(root, 'zero.ts')]);
  });

  it('says what a half-made folder lacks instead of skipping it silently', async () => {
    const root = makeTmpHome();
    mkdirSync(join(root, 'only_definition'));
    writeFileSync(join(root, 'only_definition', 'definition.json'), '{"id": "only_definition"}');
    mkdirSync(join(root, 'only_manifest'));
    writeFileSync(join(root, 'only_manifest', 'tool.json'), '{"name": "only_manifest"}');
    mkdirSync(join(root, 'just_a_folder'));
    const { diagnostics } = await discoverTools([root], testSourceContext());
    expect(diagnostics.map((d) => [d.file, d.code])).toEqual([
      [join(root, 'only_definition'), 'no-execution'],
      [join(root, 'only_manifest'), 'no-script'],
    ]);
  });

  it('computes roots from settings: user roots first, then existing, enabled well-known folders', () => {
    const home = makeTmpHome();
    const userHome = makeTmpHome();
    const cwd = makeTmpHome();
    mkdirSync(join(userHome, '.config/agenvoy/tools/script'), { recursive: true });
    mkdirSync(join(userHome, '.omp/agent/tools'), { recursive: true });
    mkdirSync(join(cwd, '.omp/tools'), { recursive: true });
    const settings = defaultSettings();
    
    const roots = toolRootsFromSettings(settings, { home, cwd, userHome, exists: existsSync });
    expect(roots.map((r) => [r.path, r.kind, r.formats])).toEqual([
      [join(home, 'tools'), 'user', undefined],
      [join(userHome, '.config/agenvoy/tools/script'), 'well-known', ['script']],
      [join(userHome, '.omp/agent/tools'), 'well-known', ['module']],
      [join(cwd, '.omp/tools'), 'well-known', ['module']],
    ]);
    settings.wellKnownRoots.ompHome = false;
    settings.toolRoots = ['~/mine', 'relative'];
    expect(toolRootsFromSettings(settings, { home, cwd, userHome, exists: existsSync }).map((r) => r.path)).toEqual([
      join(userHome, 'mine'),
      join(cwd, 'relative'),
      join(userHome, '.config/agenvoy/tools/script'),
      join(cwd, '.omp/tools'),
    ]);
  });

  it('reads only script folders from an Agenvoy root and only modules from an omp root', async () => {
    const agenvoy = makeTmpHome();
    symlinkSync(join(TOOL_FIXTURES, 'script-seed', 'calculate_rsi'), join(agenvoy, 'calculate_rsi'));
    writeFileSync(join(agenvoy, 'stray.py'), 'def stray():\n    """x"""\n    return 1\n');
    const omp = makeTmpHome();
    symlinkSync(join(TOOL_FIXTURES, 'module-repo-stats', 'repo_stats'), join(omp, 'repo_stats'));
    writeFileSync(join(omp, 'README.md'), '# tools');
    const { groups } = await discoverTools(
      [
        { path: agenvoy, kind: 'well-known', formats: ['script'] },
        { path: omp, kind: 'well-known', formats: ['module'] },
      ],
      testSourceContext(),
    );
    expect(groups.map((g) => [g.name, g.tools.map((t) => t.definition.function.name)])).toEqual([
      ['script', ['script_calculate_rsi']],
      ['repo_stats', ['repo_stats']],
    ]);
  });
});
