import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPythonModules } from '../../../electron/runtime/sources/python/index.ts';
import { PYTHON_PARSER_VERSION } from '../../../electron/runtime/sources/python/parse.ts';
import type { ToolContext } from '../../../electron/runtime/tools/types.ts';
import { copyFixtures, countingContext, entriesOf } from '../../support/module-tool-fixtures.ts';

const load = async (root: string, ctx = countingContext()) => ({ ctx, ...(await loadPythonModules(entriesOf(root, 'python'), ctx)) });
const toolCtx = (signal = new AbortController().signal): ToolContext => ({ callId: 'c1', sessionId: 's1', signal, onUpdate: () => {} });
const tool = (groups: Awaited<ReturnType<typeof load>>['groups'], name: string) => groups.flatMap((g) => g.tools).find((t) => t.definition.function.name === name)!;

describe('loadPythonModules: parsing', () => {
  it('maps a Google-style module to a group with schemas, defaults, Optional and Literal', async () => {
    const { groups, diagnostics } = await load(copyFixtures('py-google-weather'));
    expect(diagnostics).toEqual([]);
    expect(groups).toHaveLength(1);
    const group = groups[0]!;
    expect(group.name).toBe('weather');
    expect(group.rulePrompt).toMatch(/^天气工具/);
    expect(group.tools.map((t) => t.definition.function.name)).toEqual(['get_forecast', 'compare']);
    const forecast = tool(groups, 'get_forecast');
    expect(forecast.definition.function.description).toBe('Get the weather forecast for a city.\n\nReturns one entry per day.');
    expect(forecast.definition.function.parameters).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name, e.g. "Paris" (required)' },
        days: { type: 'integer', description: 'Number of days, default 3 (optional)', default: 3 },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'Temperature unit', default: 'celsius' },
        lang: { type: 'string', description: 'Language of the summary' },
      },
      required: ['city'],
    });
    expect(forecast.permission).toEqual({ executionPolicy: 'auto' });
    expect(forecast.declaredReturnType).toEqual({ type: 'dict', note: '{"city": ..., "days": [...]}' });
    expect(forecast.source).toMatchObject({ format: 'python', line: 8 });
    expect(tool(groups, 'compare').definition.function.parameters).toEqual({
      type: 'object',
      properties: { cities: { type: 'array', items: { type: 'string' }, description: 'Cities to compare' }, metric: { type: 'string', description: 'What to compare', default: 'temperature' } },
      required: ['cities'],
    });
    expect(tool(groups, 'compare').permission).toEqual({ resultApprovalPolicy: 'never' });
  });

  it('reads reST and NumPy docstrings, unions, tuples, dicts, Any, and reports *args/**kwargs and unknown classes', async () => {
    const { groups, diagnostics } = await load(copyFixtures('py-docstring-styles'));
    const rest = tool(groups, 'rest_style');
    expect(rest.definition.function.description).toBe('Open something (reST).\n\nExtra body text.');
    expect(rest.definition.function.parameters).toEqual({
      type: 'object',
      properties: {
        path: { description: 'Where to look (expected type: str)' },
        mode: { anyOf: [{ type: 'integer' }, { type: 'string' }], description: 'How to open', default: 'r' },
        flag: { type: 'boolean', description: 'A switch', default: false },
      },
      required: ['path'],
    });
    expect(rest.declaredReturnType).toEqual({ type: 'str', note: 'the handle' });
    const numpy = tool(groups, 'numpy_style');
    expect(numpy.definition.function.description).toBe('Weighted sum (NumPy).');
    expect(numpy.definition.function.parameters).toEqual({
      type: 'object',
      properties: {
        x: { type: 'number', description: 'The value.' },
        weights: { type: 'object', additionalProperties: { type: 'number' }, description: 'Weight per key.' },
        pair: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }], minItems: 2, maxItems: 2, description: 'A pair.' },
        extra: {},
      },
      required: ['x', 'weights', 'pair'],
    });
    expect(numpy.declaredReturnType).toEqual({ type: 'float', note: 'The sum.' });
    expect(tool(groups, 'variadic').definition.function.parameters).toEqual({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
    const odd = tool(groups, 'odd_types').definition.function.parameters as { properties: Record<string, unknown>; required?: string[] };
    expect(odd.properties.when).toEqual({ type: 'string', description: 'Expected a datetime.date (passed as a string).' });
    expect(odd.properties.count).toEqual({ type: 'integer' });
    expect(odd.properties.items).toEqual({ type: 'array', default: [] });
    expect(odd.required).toEqual(['when']);
    const codes = diagnostics.map((d) => `${d.code}@${d.line}:${d.column ?? ''}`);
    expect(codes).toEqual(['variadic-parameter@39:26', 'variadic-parameter@39:34', 'unsupported-annotation@43:']);
    expect(diagnostics.every((d) => d.file.endsWith('styles.py') && d.hint)).toBe(true);
  });

  it('turns a syntax error, a non-UTF-8 file and an empty module into diagnostics while the rest loads', async () => {
    const root = copyFixtures('py-syntax-error', 'py-non-utf8', 'py-empty-module', 'py-google-weather');
    const { groups, diagnostics, ctx } = await load(root);
    expect(groups.map((g) => g.name)).toEqual(['weather']);
    const byFile = Object.fromEntries(diagnostics.map((d) => [d.file.split('/').pop(), d]));
    expect(byFile['broken.py']).toMatchObject({ severity: 'error', code: 'syntax-error', line: 6, column: 11, message: expect.stringMatching(/^Syntax error/) });
    expect(byFile['broken.py']!.hint).toBeTruthy();
    expect(byFile['latin.py']).toMatchObject({ severity: 'error', code: 'not-utf8', line: 4, column: 16, hint: 'Save the file as UTF-8.' });
    expect(byFile['nothing.py']).toMatchObject({ severity: 'warning', code: 'empty-module' });
    // One interpreter resolution + ONE parser process for all four stale modules.
    const parsers = ctx.spawned.filter((s) => s.args.some((a) => a.endsWith('parse_modules.py')));
    expect(parsers).toHaveLength(1);
    expect(JSON.parse(parsers[0]!.stdin!)).toHaveLength(4);
  });

  it('reports a corrupt cache, re-parses and rewrites it', async () => {
    const root = copyFixtures('py-corrupt-cache');
    const { groups, diagnostics } = await load(root);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ severity: 'warning', code: 'corrupt-cache', file: join(root, 'notes.tool.json'), line: 1 });
    expect(groups[0]!.tools.map((t) => t.definition.function.name)).toEqual(['add_note']);
    expect(JSON.parse(readFileSync(join(root, 'notes.tool.json'), 'utf8'))).toMatchObject({ type: 'PythonModule', name: 'notes', scriptPath: 'notes.py' });
    expect((await load(root)).diagnostics).toEqual([]);
  });

  it('keeps the first of two functions with the same name across modules and names both files', async () => {
    const root = copyFixtures('py-duplicate-names');
    const { groups, diagnostics } = await load(root);
    expect(groups.map((g) => [g.name, g.tools.map((t) => t.definition.function.name)])).toEqual([
      ['alpha', ['shared_name', 'only_alpha']],
      ['beta', ['only_beta']],
    ]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'duplicate-tool-name', file: join(root, 'beta.py'), line: 4 });
    expect(diagnostics[0]!.message).toContain(join(root, 'alpha.py'));
  });

  it('reads attributes set in a loop or with setattr, and says why a conditionally defined function is no tool', async () => {
    const root = copyFixtures('py-runtime-attributes');
    const { groups, diagnostics } = await load(root);
    const permissions = Object.fromEntries(groups[0]!.tools.map((t) => [t.definition.function.name, t.permission]));
    expect(permissions).toEqual({ first: { executionPolicy: 'auto' }, second: { executionPolicy: 'auto', resultApprovalPolicy: 'always' } });
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'conditional-function', file: join(root, 'runtime_attrs.py'), line: 21 })]);
  });

  it('reads legacy sy-f-misc attributes, module defaults and __secrets__; imported functions are not tools', async () => {
    const { groups, diagnostics } = await load(copyFixtures('py-legacy-attributes'));
    expect(diagnostics).toEqual([]);
    const group = groups[0]!;
    expect(group.defaultPermission).toEqual({ executionPolicy: 'ask-always', resultApprovalPolicy: 'on-error' });
    const permissions = Object.fromEntries(group.tools.map((t) => [t.definition.function.name, t.permission]));
    expect(permissions).toEqual({
      public_tool: { executionPolicy: 'auto' },
      moderate_tool: { executionPolicy: 'ask-once' },
      sensitive_tool: { executionPolicy: 'ask-always', resultApprovalPolicy: 'always' },
      approval_flags: { executionPolicy: 'auto', resultApprovalPolicy: 'never' },
      plain_tool: {},
      modern_wins: { executionPolicy: 'ask-once' },
    });
    expect(group.tools.every((t) => t.secrets?.join() === 'DEMO_TOKEN')).toBe(true);
  });

  it('uses an existing sy-f-misc cache (no tooldesk block) while it is newer than the script', async () => {
    const root = copyFixtures('py-seed-cache');
    utimesSync(join(root, 'legacy_cache.py'), new Date(2020, 0, 1), new Date(2020, 0, 1));
    const { groups, ctx } = await load(root);
    expect(ctx.spawned).toEqual([]);
    expect(groups[0]!.rulePrompt).toBe('Rule prompt from the seed cache');
    expect(groups[0]!.defaultPermission).toEqual({ executionPolicy: 'ask-once', resultApprovalPolicy: 'never' });
    expect(groups[0]!.tools[0]!.permission).toEqual({ executionPolicy: 'ask-always', resultApprovalPolicy: 'always' });
    // The script changes: now it is re-parsed and the cache rewritten in our format.
    utimesSync(join(root, 'legacy_cache.py'), new Date(), new Date(Date.now() + 5000));
    const second = await load(root);
    expect(second.groups[0]!.tools.map((t) => t.definition.function.name)).toEqual(['from_script']);
    expect(JSON.parse(readFileSync(join(root, 'legacy_cache.tool.json'), 'utf8')).tooldesk.parserVersion).toBe(PYTHON_PARSER_VERSION);
  });
});

describe('loadPythonModules: smart loading', () => {
  it('a warm load spawns no process at all', async () => {
    const root = copyFixtures('py-google-weather', 'py-docstring-styles', 'py-syntax-error', 'py-empty-module', 'py-legacy-attributes');
    const cold = await load(root);
    expect(cold.ctx.spawned.length).toBeGreaterThan(0);
    const warm = await load(root);
    expect(warm.ctx.spawned).toEqual([]);
    expect(warm.groups.map((g) => g.name)).toEqual(cold.groups.map((g) => g.name));
    expect(warm.diagnostics).toEqual(cold.diagnostics);
    expect(JSON.stringify(warm.groups.map((g) => g.tools.map((t) => [t.definition, t.permission, t.declaredReturnType])))).toBe(
      JSON.stringify(cold.groups.map((g) => g.tools.map((t) => [t.definition, t.permission, t.declaredReturnType]))),
    );
  });

  it('re-parses only the module whose mtime changed', async () => {
    const root = copyFixtures('py-google-weather', 'py-legacy-attributes');
    await load(root);
    const later = new Date(Date.now() + 10_000);
    writeFileSync(join(root, 'weather.py'), `${readFileSync(join(root, 'weather.py'), 'utf8')}\n\ndef added(x: int) -> int:\n    """New."""\n    return x\n`);
    utimesSync(join(root, 'weather.py'), later, later);
    const { groups, ctx } = await load(root);
    const parser = ctx.spawned.find((s) => s.args.some((a) => a.endsWith('parse_modules.py')))!;
    expect(JSON.parse(parser.stdin!)).toEqual([join(root, 'weather.py')]);
    expect(groups.find((g) => g.name === 'weather')!.tools.map((t) => t.definition.function.name)).toContain('added');
  });

  it('re-parses when the parser version in the cache differs', async () => {
    const root = copyFixtures('py-google-weather');
    await load(root);
    const file = join(root, 'weather.tool.json');
    const cache = JSON.parse(readFileSync(file, 'utf8'));
    cache.tooldesk.parserVersion = 'py-0';
    writeFileSync(file, JSON.stringify(cache));
    expect((await load(root)).ctx.spawned.length).toBeGreaterThan(0);
  });
});

describe('loadPythonModules: no interpreter', () => {
  it('reports each stale module with a hint when Python cannot start, and a call fails cleanly', async () => {
    const root = copyFixtures('py-google-weather', 'py-sibling-import');
    const { groups, diagnostics } = await load(root, countingContext(undefined, { pythonPath: '/nonexistent/python3' }));
    expect(groups).toEqual([]);
    expect(diagnostics.map((d) => [d.file, d.code])).toEqual([
      [join(root, 'greeter.py'), 'python-parser-failed'],
      [join(root, 'weather.py'), 'python-parser-failed'],
    ]);
    expect(diagnostics[0]!.hint).toMatch(/Install Python 3|Python interpreter/);
    // With caches from a working interpreter, the tools load; running them then fails as a value.
    await load(root);
    const broken = await load(root, countingContext(undefined, { pythonPath: '/nonexistent/python3' }));
    expect(broken.ctx.spawned).toEqual([]);
    const result = await tool(broken.groups, 'greet').execute({}, toolCtx());
    // A spawn error (ENOENT), or exit 127 when the runner starts it through a wrapper (prlimit).
    expect(result).toMatchObject({ status: 'ERROR', error: expect.stringMatching(/ENOENT|No such file/) });
  });
});
