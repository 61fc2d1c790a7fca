// A module cache that cannot be written (a full disk, injected into writeFile): one info
// diagnostic naming the file and what to do; the tool still loads; no temp file is left behind.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { saveModuleCache } from '../../../electron/runtime/sources/cached-modules/cache.ts';

const disk = vi.hoisted(() => ({ full: true }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const writeFile: typeof fs.writeFile = async (file, data, options) => {
    if (!disk.full) return fs.writeFile(file, data, options);
    await fs.writeFile(file, String(data).slice(0, 5), options); // part of it lands, then the disk is full
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  };
  return { ...fs, default: { ...fs, writeFile }, writeFile };
});

describe('module cache on a full disk', () => {
  it('is one diagnostic naming the file and what to do, and leaves no temp file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'td-'));
    const script = join(folder, 'weather.py');
    writeFileSync(script, 'def f(): pass\n');
    const spec = { type: 'PythonModule' as const, fileName: 'weather.tool.json', parserVersion: '1', cacheDir: join(folder, 'cache') };
    const cache = { type: 'PythonModule', parserVersion: '1', tools: [] } as never;
    const result = await saveModuleCache(script, cache, spec);
    const beside = join(folder, 'weather.tool.json');
    expect(result).toEqual({
      diagnostic: {
        severity: 'info',
        file: beside,
        message: `Could not write the tool cache ${beside}: the disk is full; free some space and try again (ENOSPC).`,
        hint: 'The module still loads, but is parsed again at every start.',
        code: 'cache-write-failed',
      },
    });
    expect(readdirSync(folder).sort()).toEqual(['weather.py']);
    disk.full = false;
    expect(await saveModuleCache(script, cache, spec)).toEqual({ file: beside });
  });
});
