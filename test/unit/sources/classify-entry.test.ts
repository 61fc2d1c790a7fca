// DESIGN.md's classification table, row by row, on a real folder.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanRoot } from '../../../electron/runtime/sources/discovery/discover-tools.ts';
import { makeTmpHome } from '../../support/tool-source-context.ts';

function tree(root: string, files: string[]): void {
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), '');
  }
}

describe('classifying root entries (DESIGN.md, Tool sources)', () => {
  it('gives each shape its format and skips caches, declarations, metadata and _/. prefixed entries', async () => {
    const root = makeTmpHome();
    tree(root, [
      'three/definition.json',
      'three/execution.py',
      'three/return.json',
      'both_scripts/tool.json',
      'both_scripts/script.js',
      'both_scripts/script.py',
      'js_script/tool.json',
      'js_script/script.js',
      'py_script/tool.json',
      'py_script/script.py',
      'ts_folder/index.ts',
      'ts_folder/index.js',
      'mjs_folder/index.mjs',
      'ext_folder/package.json',
      'loose_ts.ts',
      'loose_js.js',
      'loose_mjs.mjs',
      'loose.py',
      'loose.ps1',
      // skipped
      'loose.tool.json',
      'loose.py.tool.json',
      'types.d.ts',
      'notes.md',
      'data.json',
      'readme.txt',
      '_helper.py',
      '_private/tool.json',
      '_private/script.py',
      '.hidden/definition.json',
      '.hidden/execution.py',
      '.dotfile.ts',
      'node_modules/dep/index.js',
      'plain_folder/readme.md',
    ]);
    const { entries, diagnostics } = await scanRoot(root);
    expect(diagnostics).toEqual([]);
    expect(Object.fromEntries(entries.map((e) => [e.path.slice(root.length + 1), e.format]))).toEqual({
      three: 'three-layer',
      both_scripts: 'script',
      js_script: 'script',
      py_script: 'script',
      ts_folder: 'module',
      mjs_folder: 'module',
      ext_folder: 'module',
      'loose_ts.ts': 'module',
      'loose_js.js': 'module',
      'loose_mjs.mjs': 'module',
      'loose.py': 'python',
      'loose.ps1': 'powershell',
    });
  });

  it('honours a root that accepts only some formats (the Agenvoy script folder)', async () => {
    const root = makeTmpHome();
    tree(root, ['tool_a/tool.json', 'tool_a/script.py', 'mod.ts', 'mod.py']);
    const { entries } = await scanRoot({ path: root, kind: 'well-known', formats: ['script'] });
    expect(entries.map((e) => [e.path.slice(root.length + 1), e.format])).toEqual([['tool_a', 'script']]);
  });
});
