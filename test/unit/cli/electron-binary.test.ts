import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../../electron/cli/electron-binary.ts';
import { downloadElectron } from '../../../electron/cli/commands/start.ts';

describe('findElectronBinary', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const tmp = () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-'));
    dirs.push(dir);
    return dir;
  };

  it('uses ELECTRON_OVERRIDE_DIST_PATH, and offers no download for it', () => {
    const empty = tmp();
    const missing = findElectronBinary({ ELECTRON_OVERRIDE_DIST_PATH: empty });
    expect(missing).toMatchObject({ ok: false, reason: expect.stringContaining(empty) });
    expect(missing.ok === false && missing.installer).toBeFalsy();

    const dist = tmp();
    writeFileSync(join(dist, process.platform === 'win32' ? 'electron.exe' : 'electron'), '');
    expect(findElectronBinary({ ELECTRON_OVERRIDE_DIST_PATH: dist })).toMatchObject({ ok: true });
  });

  it("points at the package's download script when the binary was never fetched", () => {
    const found = findElectronBinary({});
    if (found.ok) {
      console.log(`Electron's binary is installed here (${found.path}); the download path is not exercised`);
      expect(existsSync(found.path)).toBe(true);
      return;
    }
    expect(found.reason).toMatch(/binary/);
    expect(found.installer && basename(found.installer)).toBe('install.js');
    expect(existsSync(found.installer!)).toBe(true);
  });
});

describe('downloadElectron', () => {
  const script = (body: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'td-dl-'));
    const path = join(dir, 'install.js');
    writeFileSync(path, body);
    return path;
  };

  it('says nothing about downloading when the download fails at once (offline), and returns the error line', async () => {
    let noticed = 0;
    const failed = await downloadElectron(script('console.error("RequestError: getaddrinfo ENOTFOUND github.com"); process.exit(1)'), process.env, () => noticed++, 1000);
    expect(failed).toBe('RequestError: getaddrinfo ENOTFOUND github.com');
    expect(noticed).toBe(0);
  });

  it('says it is downloading once when the download keeps going', async () => {
    let noticed = 0;
    const failed = await downloadElectron(script('setTimeout(() => process.exit(0), 600)'), process.env, () => noticed++, 100);
    expect(failed).toBeNull();
    expect(noticed).toBe(1);
  });
});
