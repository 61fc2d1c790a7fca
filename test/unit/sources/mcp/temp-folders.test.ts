import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFoldersNamed } from '../../../../electron/runtime/sources/mcp/config/launchers.ts';

describe('tempFoldersNamed (a server under /tmp stays readable behind the private /tmp)', () => {
  it('names the top temp folder of each existing absolute path on the command line, once', () => {
    const checkout = realpathSync(mkdtempSync(join(tmpdir(), 'td-checkout-')));
    mkdirSync(join(checkout, 'node_modules/pkg/dist'), { recursive: true });
    const script = join(checkout, 'node_modules/pkg/dist/index.js');
    writeFileSync(script, '');
    const other = realpathSync(mkdtempSync(join(tmpdir(), 'td-other-')));
    writeFileSync(join(other, 'config.json'), '{}');
    expect(tempFoldersNamed('node', [script, 'stdio', '--config', join(other, 'config.json'), join(checkout, 'x.js')]).sort()).toEqual([checkout, other].sort());
  });

  it('leaves out relative words, missing paths and paths outside the temp folder', () => {
    expect(tempFoldersNamed('npx', ['-y', '@modelcontextprotocol/server-everything', join(tmpdir(), 'td-missing-xyz', 'a.js'), '/usr/bin/env', process.execPath])).toEqual([]);
  });
});
