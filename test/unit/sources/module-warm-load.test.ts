// The whole discovery path (discoverTools, both module formats, broken files included):
// a second load with fresh caches starts no process at all.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverTools } from '../../../electron/runtime/sources/discovery/discover-tools.ts';
import { commandExists } from '../../../electron/runtime/sources/discovery/missing-interpreter.ts';
import { copyFixtures, countingContext, tmp } from '../../support/module-tool-fixtures.ts';

describe('warm load of Python and PowerShell modules', () => {
  it('spawns no process and gives the same tools and diagnostics as the cold load', async () => {
    const root = copyFixtures('py-google-weather', 'py-legacy-attributes', 'py-syntax-error', 'py-non-utf8', 'ps-seed-weather', 'ps-bad-config', 'ps-same-stem');
    const home = tmp();
    const coldCtx = countingContext(home);
    const cold = await discoverTools([root], coldCtx);
    expect(coldCtx.spawned.filter((s) => s.args.some((a) => a.endsWith('parse_modules.py')))).toHaveLength(1);
    const warmCtx = countingContext(home);
    const warm = await discoverTools([root], warmCtx);
    expect(warmCtx.spawned).toEqual([]);
    const names = (r: typeof cold) => r.groups.map((g) => [g.name, g.tools.map((t) => t.definition.function.name)]);
    expect(names(warm)).toEqual(names(cold));
    const byGroup = Object.fromEntries(warm.groups.map((g) => [g.name, g.tools.map((t) => t.definition.function.name).sort()]));
    // Same-stem .py and .ps1 share one group (and keep separate caches).
    expect(byGroup.weather).toEqual(['Get-Time', 'Get-Weather', 'compare', 'get_forecast']);
    expect(byGroup.tools).toEqual(['Invoke-Echo', 'py_echo']);
    expect(warm.diagnostics).toEqual(cold.diagnostics);
    // Without pwsh (this machine) each of the three .ps1 files is also flagged before it runs.
    const missing = commandExists('pwsh') ? [] : ['interpreter-missing', 'interpreter-missing', 'interpreter-missing'];
    expect(warm.diagnostics.map((d) => d.code).sort()).toEqual(['bad-tool-config', ...missing, 'not-utf8', 'syntax-error']);
  });
});

describe('module caches read at start', () => {
  it('a FIFO where a cache should be is reported and the script parsed, never waited on', async () => {
    const root = copyFixtures('py-google-weather');
    const home = tmp();
    rmSync(join(root, 'weather.tool.json'), { force: true });
    execFileSync('mkfifo', [join(root, 'weather.tool.json')]);
    const started = performance.now();
    const ctx = countingContext(home);
    const loaded = await discoverTools([root], ctx);
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(loaded.groups.map((g) => g.name)).toEqual(['weather']);
    const corrupt = loaded.diagnostics.filter((d) => d.code === 'corrupt-cache');
    expect(corrupt).toEqual([expect.objectContaining({ file: join(root, 'weather.tool.json'), message: expect.stringContaining('not a regular file') })]);
    // The parse wrote its cache to the fallback folder (the FIFO stays); the next load is warm.
    const warm = countingContext(home);
    expect((await discoverTools([root], warm)).groups.map((g) => g.name)).toEqual(['weather']);
    expect(warm.spawned).toEqual([]);
  });
});
