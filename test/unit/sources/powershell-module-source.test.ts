import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findPowerShell } from '../../../electron/runtime/sources/powershell/find-powershell.ts';
import type { CachedDiagnostic } from '../../../electron/runtime/sources/cached-modules/cache.ts';
import { parsePowerShellFileStatically, parsePowerShellModules, type ParsedPowerShellFile } from '../../../electron/runtime/sources/powershell/parse.ts';
import { parsePowerShellSource, psTypeSchema } from '../../../electron/runtime/sources/powershell/parse-source.ts';
import { loadPowerShellModules } from '../../../electron/runtime/sources/powershell/index.ts';
import { loadPythonModules } from '../../../electron/runtime/sources/python/index.ts';
import type { ToolGroup } from '../../../electron/runtime/tools/types.ts';
import { copyFixtures, countingContext, entriesOf, EXAMPLES, FIXTURES } from '../../support/module-tool-fixtures.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const HOSTILE = join(REPO, 'test/fixtures/hostile');

const hasPwsh = findPowerShell() !== null;
const load = async (root: string, ctx = countingContext()) => ({ ctx, ...(await loadPowerShellModules(entriesOf(root, 'powershell'), ctx)) });
const tools = (groups: ToolGroup[]) => groups.flatMap((g) => g.tools);

describe('PowerShell static parser', () => {
  it('reads the seed-style module: help, param() types, ValidateSet, Mandatory, defaults, Format-<Fn>, TOOL_CONFIG', () => {
    const parsed = parsePowerShellSource(readFileSync(join(FIXTURES, 'ps-seed-weather/weather.ps1'), 'utf8'));
    expect(parsed.rulePrompt).toBe('Weather tools for PowerShell.\n\nUse Get-Weather for forecasts.');
    expect(parsed.toolConfig).toEqual({ executionPolicy: 'ask-once', resultApprovalPolicy: 'never' });
    expect(parsed.diagnostics).toEqual([]);
    // Format-*, Internal-*, _* and the nested function are not tools.
    expect(parsed.tools.map((t) => t.function.name)).toEqual(['Get-Weather', 'Get-Time']);
    const [weather, time] = parsed.tools;
    expect(weather).toMatchObject({ line: 26, formatter: 'Format-Get-Weather', declaredReturnType: { type: 'PSCustomObject', note: 'The forecast.' } });
    expect(weather!.function.description).toBe('Get the weather for a city.\n\nReturns one value per day.');
    expect(weather!.function.parameters).toEqual({
      type: 'object',
      properties: {
        City: { type: 'string', description: 'City name, e.g. "Paris".' },
        Days: { type: 'integer', minimum: 1, maximum: 14, description: 'Number of days.', default: 3 },
        Unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'Temperature unit.', default: 'celsius' },
        Detailed: { type: 'boolean' },
        Tags: { type: 'array', items: { type: 'string' }, default: ['a', 'b'] },
        Options: { type: 'object' },
        Threshold: { type: 'number', default: 0.5 },
        Anything: { type: 'string' },
      },
      required: ['City'],
    });
    // Inline parameters and help at the start of the body.
    expect(time!.function).toEqual({
      name: 'Get-Time',
      description: 'Current time in a zone.',
      parameters: { type: 'object', properties: { Zone: { type: 'string', description: 'IANA zone name.' }, Utc: { type: 'boolean', default: false } }, required: ['Zone'] },
    });
  });

  it('reads line-comment help, help at the end of the body, and is not fooled by braces in strings', () => {
    const parsed = parsePowerShellSource(readFileSync(join(FIXTURES, 'ps-help-styles/styles.ps1'), 'utf8'));
    expect(parsed.rulePrompt).toBe('');
    expect(parsed.tools.map((t) => [t.function.name, t.function.description])).toEqual([
      ['Get-Greeting', 'Line-comment help before the function.'],
      ['Get-Tail', 'Help at the end of the body.'],
      ['Get-Braces', ''],
    ]);
    expect(parsed.tools[0]!.function.parameters).toEqual({ type: 'object', properties: { Name: { type: 'string', description: 'Who to greet.', default: 'world' }, Count: { type: 'integer', default: 1 } } });
    expect(parsed.tools[1]!.declaredReturnType).toEqual({ type: 'System.String' });
    expect(parsed.tools[2]!.function.parameters).toEqual({ type: 'object', properties: { Pattern: { type: 'string', default: '{not a brace}' }, Quote: { type: 'string', default: "it's" } } });
  });

  it('maps PowerShell types as the issue lists', () => {
    const cases: [string, unknown][] = [
      ['Int32', { type: 'integer' }], ['Int64', { type: 'integer' }], ['int', { type: 'integer' }], ['long', { type: 'integer' }],
      ['Double', { type: 'number' }], ['Single', { type: 'number' }], ['float', { type: 'number' }], ['decimal', { type: 'number' }],
      ['Boolean', { type: 'boolean' }], ['Switch', { type: 'boolean' }], ['bool', { type: 'boolean' }],
      ['int[]', { type: 'array', items: { type: 'integer' } }], ['System.String[]', { type: 'array', items: { type: 'string' } }],
      ['Hashtable', { type: 'object' }], ['PSCustomObject', { type: 'object' }], ['DateTime', { type: 'string' }], ['System.IO.FileInfo', { type: 'string' }],
    ];
    for (const [type, schema] of cases) expect(psTypeSchema(type), type).toEqual(schema);
  });

  it('reports unbalanced brackets as a syntax error with line and column', () => {
    const parsed = parsePowerShellSource(readFileSync(join(FIXTURES, 'ps-syntax-error/broken.ps1'), 'utf8'));
    expect(parsed.error).toMatchObject({ severity: 'error', code: 'syntax-error', line: 4, column: 1 });
    expect(parsed.error!.message).toMatch(/closes the '\(' opened at line 2/);
  });

  it('reads a TOOL_CONFIG with legacy keys and parameter comments inside param()', () => {
    const parsed = parsePowerShellSource(readFileSync(join(FIXTURES, 'ps-legacy-config/legacy.ps1'), 'utf8'));
    expect(parsed.toolConfig).toEqual({ permissionLevel: 'sensitive', requireResultApproval: true, timeout: 5 });
    expect(parsed.tools[0]!.function.parameters).toEqual({
      type: 'object',
      properties: { Path: { type: 'string', description: 'The path to remove' }, Retries: { type: 'integer', default: 2 } },
      required: ['Path'],
    });
  });
});

describe('loadPowerShellModules', () => {
  it('loads groups with TOOL_CONFIG defaults (legacy keys mapped) and diagnostics for broken modules', async () => {
    const root = copyFixtures('ps-seed-weather', 'ps-legacy-config', 'ps-empty-module', 'ps-bad-config', 'ps-syntax-error');
    const { groups, diagnostics } = await load(root);
    expect(groups.map((g) => g.name)).toEqual(['bad', 'legacy', 'weather']);
    const weather = groups.find((g) => g.name === 'weather')!;
    expect(weather.rulePrompt).toBe('Weather tools for PowerShell.\n\nUse Get-Weather for forecasts.');
    expect(weather.defaultPermission).toEqual({ executionPolicy: 'ask-once', resultApprovalPolicy: 'never' });
    expect(weather.source).toMatchObject({ format: 'powershell', file: join(root, 'weather.ps1') });
    expect(groups.find((g) => g.name === 'legacy')!.defaultPermission).toEqual({ executionPolicy: 'ask-always', resultApprovalPolicy: 'always' });
    expect(groups.find((g) => g.name === 'legacy')!.tools[0]!.timeoutMs).toBe(5000);
    const byFile = diagnostics.map((d) => [d.file.split('/').pop(), d.code, d.severity, d.line]);
    expect(byFile).toEqual([
      ['bad.ps1', 'bad-tool-config', 'warning', 1],
      ['broken.ps1', 'syntax-error', 'error', 4],
      ['helpers.ps1', 'empty-module', 'warning', 1],
    ]);
    expect(diagnostics.every((d) => d.hint)).toBe(true);
  });

  it('caches beside the script, and a warm load spawns no process', async () => {
    const root = copyFixtures('ps-seed-weather', 'ps-legacy-config');
    const cold = await load(root);
    expect(JSON.parse(readFileSync(join(root, 'weather.tool.json'), 'utf8'))).toMatchObject({ type: 'PowerShellModule', name: 'weather', scriptPath: 'weather.ps1', defaultPermissions: { executionPolicy: 'ask-once' } });
    const warm = await load(root);
    expect(warm.ctx.spawned).toEqual([]);
    expect(JSON.stringify(tools(warm.groups).map((t) => t.definition))).toBe(JSON.stringify(tools(cold.groups).map((t) => t.definition)));
    if (!hasPwsh) expect(cold.ctx.spawned).toEqual([]); // the static parser runs in-process
  });

  it('keeps a .py and a .ps1 with the same stem from overwriting each other\'s cache', async () => {
    const root = copyFixtures('ps-same-stem');
    const ps = await load(root);
    const ctx = countingContext();
    const py = await loadPythonModules(entriesOf(root, 'python'), ctx);
    expect(JSON.parse(readFileSync(join(root, 'tools.tool.json'), 'utf8')).type).toBe('PythonModule');
    expect(JSON.parse(readFileSync(join(root, 'tools.ps1.tool.json'), 'utf8')).type).toBe('PowerShellModule');
    const again = await load(root);
    const pyAgain = countingContext();
    await loadPythonModules(entriesOf(root, 'python'), pyAgain);
    expect(again.ctx.spawned).toEqual([]);
    expect(pyAgain.spawned).toEqual([]);
    expect(tools(ps.groups).map((t) => t.definition.function.name)).toEqual(['Invoke-Echo']);
    expect(tools(py.groups).map((t) => t.definition.function.name)).toEqual(['py_echo']);
    expect(tools(again.groups).map((t) => t.definition.function.name)).toEqual(['Invoke-Echo']);
  });

  it('reads UTF-16 scripts and reports non-UTF-8 bytes with their position', async () => {
    const root = copyFixtures();
    const text = '<#\n.SYNOPSIS\n  Wide.\n#>\n\n\nfunction Get-Wide { "w" }\n';
    writeFileSync(join(root, 'wide.ps1'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    writeFileSync(join(root, 'latin.ps1'), Buffer.from('function Get-Cafe {\n  "caf\xe9"\n}\n', 'latin1'));
    const { groups, diagnostics } = await load(root);
    expect(groups.map((g) => [g.name, g.rulePrompt])).toEqual([['wide', 'Wide.']]);
    expect(diagnostics).toEqual([expect.objectContaining({ file: join(root, 'latin.ps1'), code: 'not-utf8', line: 2, column: 7 })]);
  });

  it('re-parses a modified script and reports a corrupt cache', async () => {
    const root = copyFixtures('ps-legacy-config');
    await load(root);
    writeFileSync(join(root, 'legacy.tool.json'), '{"type": "PowerShellModule", "name": ');
    const { groups, diagnostics } = await load(root);
    expect(diagnostics.map((d) => d.code)).toEqual(['corrupt-cache']);
    expect(tools(groups).map((t) => t.definition.function.name)).toEqual(['Remove-Thing']);
    expect(existsSync(join(root, 'legacy.tool.json'))).toBe(true);
  });

  it("reuses a cache written by sy-f-misc's ps2tool (BOM, Windows scriptPath, one-element lists unrolled)", async () => {
    const root = copyFixtures('ps-sy-cache');
    utimesSync(join(root, 'summary.ps1'), new Date(2020, 0, 1), new Date(2020, 0, 1));
    const { groups, diagnostics, ctx } = await load(root);
    expect(ctx.spawned).toEqual([]);
    expect(diagnostics).toEqual([]);
    expect(groups[0]!.rulePrompt).toBe('Summary tools (from the cache).');
    const [summary] = tools(groups);
    expect(summary!.definition.function.description).toBe('Summarises options (from the cache).');
    // ConvertTo-Json wrote ValidateSet('plain') and the single Mandatory name as bare strings.
    expect(summary!.definition.function.parameters).toMatchObject({ required: ['Title'], properties: { Style: { enum: ['plain'] } } });
  });

  it('returns an error result naming pwsh when PowerShell is not installed', async () => {
    const { groups } = await load(copyFixtures('ps-seed-weather'));
    const weather = tools(groups).find((t) => t.definition.function.name === 'Get-Weather')!;
    const result = await weather.execute({ City: 'Paris' }, { callId: 'c', sessionId: 's', signal: new AbortController().signal, onUpdate: () => {} });
    if (hasPwsh) expect(result.status).toBe('SUCCESS');
    else expect(result).toMatchObject({ status: 'ERROR', error: expect.stringMatching(/pwsh/) });
  });
});

/** Every PowerShell script the tests and examples ship: both parsers must handle each one. */
function allPowerShellFixtures(): string[] {
  const dirs = [
    ...readdirSync(FIXTURES).filter((d) => d.startsWith('ps-')).map((d) => join(FIXTURES, d)),
    ...readdirSync(HOSTILE).filter((d) => d.startsWith('ps-')).map((d) => join(HOSTILE, d)),
    EXAMPLES,
  ];
  return dirs.flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.ps1')).map((f) => join(dir, f))).sort();
}

const relative = (path: string) => path.slice(path.indexOf(path.includes('/resources/') ? 'resources/' : 'test/'));

/** What each fixture parses to: tools, diagnostic codes, or the error that skips the module. */
const EXPECTED: Record<string, { tools?: string[]; codes?: string[]; error?: string; config?: boolean }> = {
  'resources/examples/disk_usage.ps1': { tools: ['Get-FolderSize'], config: true },
  'test/fixtures/hostile/ps-deep-braces/mod.ps1': { tools: ['Get-Deep'] },
  'test/fixtures/hostile/ps-nul-bom-crlf/mod.ps1': { tools: ['Get-Y'] },
  'test/fixtures/hostile/ps-param-injection/mod.ps1': { tools: ['Invoke-Evil'], codes: ['default-not-literal'] },
  'test/fixtures/hostile/ps-tool-config-broken/mod.ps1': { tools: ['Get-Z'], codes: ['bad-tool-config'] },
  'test/fixtures/hostile/ps-unterminated-here-string/mod.ps1': { error: 'syntax-error' },
  'test/fixtures/tools/ps-bad-config/bad.ps1': { tools: ['Get-Ok'], codes: ['bad-tool-config'] },
  'test/fixtures/tools/ps-empty-module/helpers.ps1': { tools: [], codes: ['empty-module'] },
  'test/fixtures/tools/ps-help-styles/styles.ps1': { tools: ['Get-Greeting', 'Get-Tail', 'Get-Braces'] },
  'test/fixtures/tools/ps-legacy-config/legacy.ps1': { tools: ['Remove-Thing'], config: true },
  'test/fixtures/tools/ps-same-stem/tools.ps1': { tools: ['Invoke-Echo'] },
  'test/fixtures/tools/ps-seed-weather/weather.ps1': { tools: ['Get-Weather', 'Get-Time'], config: true },
  'test/fixtures/tools/ps-syntax-error/broken.ps1': { error: 'syntax-error' },
  'test/fixtures/tools/ps-sy-cache/summary.ps1': { tools: ['Get-Summary'], codes: ['default-not-literal'] },
};

describe('the static parser on every PowerShell fixture', () => {
  it('lists every fixture here (a new .ps1 fixture needs its expected outcome)', () => {
    expect(allPowerShellFixtures().map(relative)).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [path, expected] of Object.entries(EXPECTED)) {
    it(path, async () => {
      const parsed = await parsePowerShellFileStatically(join(REPO, path));
      if (expected.error) {
        expect(parsed).toMatchObject({ ok: false, error: { code: expected.error, line: expect.any(Number), hint: expect.any(String) } });
        return;
      }
      if (!parsed.ok) throw new Error(`${path}: ${parsed.error.message}`);
      expect(parsed.tools.map((t) => t.function.name)).toEqual(expected.tools);
      expect(parsed.diagnostics.map((d) => d.code)).toEqual(expected.codes ?? []);
      expect(parsed.toolConfig !== null).toBe(expected.config ?? false);
      for (const tool of parsed.tools) expect(tool.function.parameters).toMatchObject({ type: 'object', properties: expect.any(Object) });
    });
  }
});

/** A test that needs pwsh: where pwsh is missing it says so, by name, instead of passing silently. */
function pwshTest(name: string, fn: () => Promise<void>): void {
  if (!hasPwsh) console.log(`did not run (pwsh is not on PATH, PowerShell cannot be installed here): ${name}`);
  it.runIf(hasPwsh)(name, fn);
}

/** Messages come from .NET or from JavaScript; what the model and the user act on must agree. */
function comparable(parsed: ParsedPowerShellFile): unknown {
  const strip = ({ message: _m, ...rest }: CachedDiagnostic) => rest;
  return parsed.ok ? { ...parsed, diagnostics: parsed.diagnostics.map(strip) } : { ok: false, error: strip(parsed.error) };
}

describe('PowerShell execution and parse.ps1 (need pwsh)', () => {
  pwshTest('runs a function with splatted args, Format-<Fn> and errors as JSON', async () => {
    const { groups } = await load(copyFixtures('ps-seed-weather'));
    const weather = tools(groups).find((t) => t.definition.function.name === 'Get-Weather')!;
    const ctx = { callId: 'c', sessionId: 's', signal: new AbortController().signal, onUpdate: () => {} };
    const ok = await weather.execute({ City: 'Paris', Days: 2 }, ctx);
    expect(ok).toMatchObject({ status: 'SUCCESS', data: { City: 'Paris', Days: 2, Unit: 'celsius' }, formattedText: 'Weather in Paris: 2 days' });
    const bad = await weather.execute({ Nope: 1 }, ctx);
    expect(bad.status).toBe('ERROR');
  });

  pwshTest("calls Format-<Fn> as sy-f-misc does (-Result, -Arguments) and binds objects to [hashtable]", async () => {
    // Its sy-f-misc cache has no formatter field: the formatter is found when the tool runs.
    const root = copyFixtures('ps-sy-cache');
    utimesSync(join(root, 'summary.ps1'), new Date(2020, 0, 1), new Date(2020, 0, 1));
    const { groups } = await load(root);
    const ctx = { callId: 'c', sessionId: 's', signal: new AbortController().signal, onUpdate: () => {} };
    const result = await tools(groups)[0]!.execute({ Title: 'T', Options: { b: 1, a: 2 } }, ctx);
    expect(result).toMatchObject({ status: 'SUCCESS', data: { title: 'T', keys: ['a', 'b'] }, formattedText: 'T: a,b (asked for T)' });
  });

  pwshTest('parse.ps1 and the static parser agree on every PowerShell fixture', async () => {
    const paths = allPowerShellFixtures();
    const viaPwsh = await parsePowerShellModules(paths, countingContext());
    for (const path of paths) {
      const { path: _p, ...fromPwsh } = viaPwsh.get(path) as ParsedPowerShellFile & { path?: string };
      expect(comparable(fromPwsh as ParsedPowerShellFile), path).toEqual(comparable(await parsePowerShellFileStatically(path)));
    }
  });
});
