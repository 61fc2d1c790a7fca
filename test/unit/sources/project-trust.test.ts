import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings.ts';
import { UNTRUSTED_FOLDER_CODE } from '../../../shared/tools.ts';
import { scanRoot } from '../../../electron/runtime/sources/discovery/discover-tools.ts';
import { isTrustedProjectFolder, protectedToolFolders, rootsKey, toolRootsFromSettings, withProjectTrust } from '../../../electron/runtime/sources/discovery/tool-roots.ts';
import { tmp } from '../../support/module-tool-fixtures.ts';

const where = { home: '/td', cwd: '/work/proj', userHome: '/home/me', exists: () => true };

describe('project trust in the tool roots', () => {
  it('marks the project folders untrusted until their path is approved; user and home roots are trusted', () => {
    const settings = { ...defaultSettings(), toolRoots: ['/work/proj/tools'] };
    const roots = toolRootsFromSettings(settings, where);
    expect(roots.map((r) => [r.path, r.untrusted ?? false])).toEqual([
      ['/work/proj/tools', false],
      ['/home/me/.config/agenvoy/tools/script', false],
      ['/work/proj/.config/agenvoy/tools/script', true],
      ['/home/me/.omp/agent/tools', false],
      ['/work/proj/.omp/tools', true],
    ]);
    const approved = toolRootsFromSettings({ ...settings, trustedProjectFolders: ['/work/proj/.omp/tools/'] }, where);
    expect(approved.find((r) => r.path === '/work/proj/.omp/tools')?.untrusted).toBeUndefined();
    expect(approved.find((r) => r.path === '/work/proj/.config/agenvoy/tools/script')?.untrusted).toBe(true);
  });

  it('a project folder the user also named as a root is the user\'s (trusted)', () => {
    const roots = toolRootsFromSettings({ ...defaultSettings(), toolRoots: ['.omp/tools'] }, where);
    expect(roots.filter((r) => r.path === '/work/proj/.omp/tools')).toEqual([{ path: '/work/proj/.omp/tools', kind: 'user' }]);
  });

  it('adds and withdraws approvals by resolved path, once', () => {
    expect(withProjectTrust(['/a/.omp/tools'], '/a/.omp/tools/', true)).toEqual(['/a/.omp/tools']);
    expect(withProjectTrust(['/a/.omp/tools', '/b'], '/a/x/../.omp/tools', false)).toEqual(['/b']);
    expect(isTrustedProjectFolder({ trustedProjectFolders: ['/a/.omp/tools'] }, '/a/.omp/./tools')).toBe(true);
    expect(isTrustedProjectFolder({}, '/a/.omp/tools')).toBe(false);
    // A relative entry would approve `.omp/tools` in whatever folder the CLI runs: it approves nothing.
    expect(isTrustedProjectFolder({ trustedProjectFolders: ['.omp/tools'] }, `${process.cwd()}/.omp/tools`)).toBe(false);
  });

  it('changes the roots key when an approval changes (the app reloads its roots)', () => {
    const s = defaultSettings();
    expect(rootsKey(s)).not.toBe(rootsKey({ ...s, trustedProjectFolders: ['/x'] }));
  });

  it('an untrusted root is never listed: one diagnostic, no entries, even when full of tools', async () => {
    const root = tmp();
    mkdirSync(join(root, 'a'));
    const scanned = await scanRoot({ path: root, kind: 'well-known', wellKnown: 'ompProject', formats: ['module'], untrusted: true });
    expect(scanned.entries).toEqual([]);
    expect(scanned.diagnostics).toEqual([expect.objectContaining({ file: root, severity: 'warning', code: UNTRUSTED_FOLDER_CODE, message: expect.stringContaining('untrusted project folder — review') })]);
  });

  it('tells the sandbox every tool folder: configured and default roots, every well-known folder, and the loaded ones', () => {
    const folders = protectedToolFolders({ ...defaultSettings(), toolRoots: ['~/mytools'], wellKnownRoots: { agenvoyHome: false, agenvoyProject: false, ompHome: false, ompProject: false } }, where, [
      { path: '/cli/cwd/.omp/tools', kind: 'well-known', wellKnown: 'ompProject' },
      { path: '/given', kind: 'user' },
    ]);
    expect(folders.toolRoots.sort()).toEqual(['/given', '/home/me/.config/agenvoy/tools/script', '/home/me/.omp/agent/tools', '/home/me/mytools', '/td/tools']);
    expect(folders.projectToolFolders.sort()).toEqual(['/cli/cwd/.omp/tools', '/work/proj/.config/agenvoy/tools/script', '/work/proj/.omp/tools']);
  });

  it('counts approved project folders as tool roots (guarded even while missing), wherever they are', () => {
    const folders = protectedToolFolders({ ...defaultSettings(), trustedProjectFolders: ['/work/proj/.omp/tools', '/other/proj/.omp/tools', 'relative/ignored'] }, where);
    expect(folders.toolRoots).toEqual(expect.arrayContaining(['/work/proj/.omp/tools', '/other/proj/.omp/tools']));
    expect(folders.toolRoots).not.toContain('relative/ignored');
    expect(folders.projectToolFolders).toEqual(['/work/proj/.config/agenvoy/tools/script']);
  });
});
