import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverTools } from '../../../electron/runtime/sources/discovery/discover-tools.ts';
import { commandExists, missingInterpreterDiagnostics } from '../../../electron/runtime/sources/discovery/missing-interpreter.ts';
import type { SourceEntry } from '../../../electron/runtime/sources/types.ts';
import { copyFixtureCase } from '../../support/fixture-entries.ts';
import { makeTmpHome, testSourceContext } from '../../support/tool-source-context.ts';

describe('tools whose interpreter is missing', () => {
  it('are listed and flagged with what to install, before they run (PowerShell without pwsh)', async () => {
    const root = copyFixtureCase('ps-seed-weather');
    const { groups, diagnostics } = await discoverTools([root], testSourceContext());
    expect(groups.flatMap((g) => g.tools).length).toBeGreaterThan(0);
    const flagged = diagnostics.filter((d) => d.code === 'interpreter-missing');
    // pwsh cannot be installed on this machine; where it is, nothing is flagged.
    if (commandExists('pwsh')) expect(flagged).toEqual([]);
    else {
      expect(flagged.length).toBeGreaterThan(0);
      expect(flagged[0]).toMatchObject({ severity: 'warning', message: expect.stringContaining('PowerShell (pwsh) is not installed') });
      expect(flagged[0]!.file.endsWith('.ps1')).toBe(true);
      expect(flagged[0]!.hint).toContain('pwsh');
    }
  });

  it('flags Python formats when the configured interpreter does not exist, naming the tool file', async () => {
    const home = makeTmpHome();
    const root = join(home, 'tools');
    mkdirSync(join(root, 'greet'), { recursive: true });
    writeFileSync(join(root, 'greet', 'definition.json'), JSON.stringify({ id: 'greet', name: 'greet', description: 'Greets', parameters: { type: 'object', properties: {} } }));
    writeFileSync(join(root, 'greet', 'execution.py'), 'print("hi")\n');
    mkdirSync(join(root, 'jsonly'));
    writeFileSync(join(root, 'jsonly', 'tool.json'), JSON.stringify({ name: 'jsonly', description: 'JS tool', parameters: { type: 'object', properties: {} } }));
    writeFileSync(join(root, 'jsonly', 'script.js'), 'process.stdout.write("{}")\n');
    const ctx = { ...testSourceContext(), pythonPath: join(home, 'no-such-python3') };
    const { diagnostics } = await discoverTools([root], ctx);
    const flagged = diagnostics.filter((d) => d.code === 'interpreter-missing');
    expect(flagged.map((d) => d.file)).toEqual([join(root, 'greet', 'execution.py')]);
    expect(flagged[0]!.message).toContain('no-such-python3');
    expect(flagged[0]!.hint).toContain('pythonPath');
  });

  it('looks each interpreter up once per load, however many entries need it', () => {
    let asked = 0;
    const entries: SourceEntry[] = Array.from({ length: 50 }, (_, i) => ({ root: '/r', path: `/r/m${i}.ps1`, format: 'powershell' }));
    const found = missingInterpreterDiagnostics(entries, { pythonPath: null }, { python: () => true, pwsh: () => (asked++, false) });
    expect(found).toHaveLength(50);
    expect(asked).toBe(1);
  });
});
