// The app writes a fresh host's load requests while it boots (tool-host.ts): they wait in its
// stdin. A stand-in host (node -e) shows what it found there before it would have said `ready`;
// one that dies then settles every request with the reason, and one that never starts is bounded.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultSettings } from '../../../shared/settings.ts';
import { tmp } from '../../support/module-tool-fixtures.ts';

const stand = vi.hoisted(() => ({ script: '' }));

vi.mock('../../../electron/runtime/sources/module/host-launch.ts', () => ({
  hostLaunch: async () => ({ command: process.execPath, args: ['-e', stand.script], env: {}, readOnlyPaths: [] }),
}));

const { loadModuleFactories } = await import('../../../electron/runtime/sources/module/index.ts');
const { createSourceContext, helperPools } = await import('../../../electron/runtime/sources/source-context.ts');

const pools = helperPools();
afterEach(() => pools.close());

function modules(count: number): { root: string; entries: Array<{ root: string; path: string; format: 'module' }> } {
  const root = join(tmp(), 'tools');
  mkdirSync(root);
  const entries = Array.from({ length: count }, (_, i) => {
    const path = join(root, `m${i}.ts`);
    writeFileSync(path, `export default () => ({ name: "m${i}", description: "m", parameters: { type: "object", properties: {} }, execute: async () => "x" });\n`);
    return { root, path, format: 'module' as const };
  });
  return { root, entries };
}

function context() {
  const settings = defaultSettings();
  settings.sandbox.mode = 'off';
  return createSourceContext(settings, tmp(), { pools });
}

describe('load requests sent while the host boots', () => {
  it('are in its stdin before it is up, and a host that dies then fails each one with its reason', async () => {
    // Waits as a booting Node would, reads what is already queued, says so and exits.
    stand.script = `setTimeout(() => { const buf = Buffer.alloc(1 << 20); let text = ''; try { text = buf.toString('utf8', 0, require('fs').readSync(0, buf)); } catch {} const loads = text.split('\\n').filter((l) => l.includes('"t":"load"')).length; process.stderr.write('found ' + loads + ' load requests before ready'); process.exit(3); }, 300);`;
    const { entries } = modules(3);
    const loaded = await loadModuleFactories(entries, context());
    expect(loaded.groups).toEqual([]);
    expect(loaded.diagnostics.map((d) => d.file)).toEqual(entries.map((e) => e.path));
    for (const diagnostic of loaded.diagnostics) {
      expect(diagnostic.code).toBe('module-host-failed');
      expect(diagnostic.message).toContain('exit code 3');
      expect(diagnostic.message).toContain('found 3 load requests before ready');
    }
  });
});
