// Issue 38: what a fork-server is told to preload — the files (the skills' hook included) and the
// folders whose modules must never enter it: tool folders and every folder a call can write.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunSpec, SandboxSpec } from '../../../electron/runtime/runner/types.ts';
import { folderPreloadSet, MAX_PRELOAD_FILES, preloadForbid, preloadRequest, pythonPreloadSet } from '../../../electron/runtime/runner/warm-python/preload-set.ts';

const spec = (extra: { cwd?: string; sandbox?: Partial<SandboxSpec> } = {}): RunSpec => ({
  command: '/usr/bin/python3',
  args: ['/skills/pdf/scripts/fill.py'],
  cwd: '/home/u/project',
  timeoutMs: 1000,
  ...extra,
  sandbox: { mode: 'auto', toolDir: '/skills/pdf', network: true, workDir: '/home/u/project', homeDir: '/home/u', ...extra.sandbox },
  python: { kind: 'script', file: '/skills/pdf/scripts/fill.py', preload: ['/skills/pdf/scripts/fill.py', '/skills/pdf/scripts/merge.py'] },
});

describe('warm dependency imports: the preload set', () => {
  it('the skills hook keeps absolute .py files, once each, in a stable order, bounded', () => {
    expect(pythonPreloadSet(['/s/b.py', 'rel.py', '/s/a.py', '/s/b.py', '/s/readme.md', '/s/x/../c.py'])).toEqual(['/s/a.py', '/s/b.py', '/s/c.py']);
    expect(pythonPreloadSet(Array.from({ length: 400 }, (_, i) => `/s/f${i}.py`))).toHaveLength(MAX_PRELOAD_FILES);
  });

  it('a folder of loose modules: its *.py but not _private.py, listed again when the folder changes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-preload-set-'));
    for (const name of ['a.py', '_helper.py', 'notes.txt']) writeFileSync(join(dir, name), '');
    const cache = {};
    expect(folderPreloadSet(dir, cache)).toEqual([join(dir, 'a.py')]);
    writeFileSync(join(dir, 'b.py'), '');
    expect(folderPreloadSet(dir, cache)).toContain(join(dir, 'b.py'));
    expect(folderPreloadSet(join(dir, 'missing'), cache)).toEqual([]);
  });

  it('forbids the tool folder, the files\' folders, writable folders, tool roots and the scratch folders', () => {
    const forbid = preloadForbid(spec({ sandbox: { writableDirs: ['/data/out'], protect: { appHome: '/h', settingsFile: '/h/s.json', sessionsDir: '/h/sessions', toolRoots: ['/tools'], projectToolFolders: ['/home/u/project/.omp/tools'] } } }), ['/skills/pdf/scripts/fill.py']);
    expect(forbid).toEqual(expect.arrayContaining(['/skills/pdf', '/skills/pdf/scripts', '/home/u/project', '/data/out', '/tools', '/home/u/project/.omp/tools', '/tmp', '/var/tmp', '/dev/shm']));
    // The home is not writable for calls (home writes off): an interpreter under it (pyenv) qualifies.
    expect(forbid).not.toContain('/home/u');
  });

  it('the home counts as writable only when home writes are on', () => {
    const asWorkDir = spec({ cwd: '/home/u', sandbox: { workDir: '/home/u' } });
    expect(preloadForbid(asWorkDir, [])).not.toContain('/home/u');
    expect(preloadForbid({ ...asWorkDir, sandbox: { ...asWorkDir.sandbox!, allowHomeWrite: true } }, [])).toContain('/home/u');
  });

  it('nothing to preload without files or with preloads off; the bound defaults to 2 s', () => {
    expect(preloadRequest(spec(), undefined)).toMatchObject({ files: ['/skills/pdf/scripts/fill.py', '/skills/pdf/scripts/merge.py'], maxMs: 2000 });
    expect(preloadRequest(spec(), { enabled: false })).toBeUndefined();
    expect(preloadRequest({ ...spec(), python: { kind: 'code', code: 'pass' } }, {})).toBeUndefined();
    expect(preloadRequest(spec(), { maxMs: 500 })?.maxMs).toBe(500);
  });
});
