// The whole discovery path (discoverTools, both module formats, broken files included):
// a second load with fresh caches starts no process at all.
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
