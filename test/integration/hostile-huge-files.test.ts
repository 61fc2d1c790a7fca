// Issue 20 §6: huge files cost bounded memory. A 150 MB settings.json (made sparse here: its
// size is what matters) is refused with a clear message before it is read, by every command
// and by the store's own reread; memory stays that of an idle command.
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_SETTINGS_BYTES, openSettingsStore } from '../../electron/runtime/store/settings-store.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(REPO, 'electron/cli/bin.mjs');

function sparseFile(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
}

/** A real session log made 300 MB: its records, then a sparse tail (a session too large to open). */
function hugeSession(home: string, id: string): string {
  mkdirSync(join(home, 'sessions'), { recursive: true });
  const file = join(home, 'sessions', `${id}.jsonl`);
  copyFileSync(new URL('../fixtures/sessions/legacy-v1.jsonl', import.meta.url), file);
  const fd = openSync(file, 'r+');
  ftruncateSync(fd, 300 * 1024 * 1024);
  closeSync(fd);
  return file;
}

describe('huge files', () => {
  it('a 300 MB session is listed from its head with its size, and `sessions show` refuses it, in bounded memory', () => {
    const home = mkdtempSync(join(tmpdir(), 'td-huge-session-'));
    const id = 'mwub5amm-291a60';
    const file = hugeSession(home, id);
    const env = { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: home };
    const list = spawnSync('/usr/bin/time', ['-f', 'maxrss=%M', process.execPath, BIN, 'sessions', 'list'], { cwd: REPO, env, encoding: 'utf8', timeout: 60_000 });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain(id);
    expect(list.stdout).toContain('Say hello (300 MB: too large to open)');
    expect(Number(/maxrss=(\d+)/.exec(list.stderr)?.[1])).toBeLessThan(300 * 1024);
    const show = spawnSync('/usr/bin/time', ['-f', 'maxrss=%M', process.execPath, BIN, 'sessions', 'show', id], { cwd: REPO, env, encoding: 'utf8', timeout: 60_000 });
    expect(show.status).not.toBe(0);
    expect(show.stderr).toContain(`${file} is 300 MB, more than the 256 MB a session may be to open, so it was not read`);
    expect(Number(/maxrss=(\d+)/.exec(show.stderr)?.[1])).toBeLessThan(300 * 1024);
  }, 120_000);

  it('a 150 MB settings.json is refused with a message naming it and the limit, without reading it', () => {
    const home = mkdtempSync(join(tmpdir(), 'td-huge-settings-'));
    const file = join(home, 'settings.json');
    sparseFile(file, 150 * 1024 * 1024);
    expect(() => openSettingsStore(home)).toThrow(`Could not read ${file}: it is 150 MB, more than the ${(MAX_SETTINGS_BYTES / 1024 / 1024).toFixed(1)} MB a settings file may be`);
    for (const args of [['config', 'get'], ['sessions', 'list']]) {
      const run = spawnSync('/usr/bin/time', ['-f', 'maxrss=%M', process.execPath, BIN, ...args], { cwd: REPO, env: { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: home }, encoding: 'utf8', timeout: 30_000 });
      expect(run.status, args.join(' ')).not.toBe(0);
      expect(run.stderr).toContain(`${file}: it is 150 MB, more than the 4.0 MB a settings file may be, so it was not read`);
      const rssKb = Number(/maxrss=(\d+)/.exec(run.stderr)?.[1]);
      expect(rssKb).toBeLessThan(300 * 1024);
    }
  }, 60_000);

  it('1 GiB tool sources (a Python module, a TS module, a tool.json) get a diagnostic without being read', () => {
    const home = mkdtempSync(join(tmpdir(), 'td-huge-tools-'));
    const root = mkdtempSync(join(tmpdir(), 'td-huge-root-'));
    mkdirSync(join(root, 'tl'));
    for (const rel of ['big.py', 'big.ts', 'tl/tool.json']) sparseFile(join(root, rel), 1024 ** 3);
    writeFileSync(join(root, 'tl/script.py'), 'print(1)\n');
    const run = spawnSync('/usr/bin/time', ['-f', 'maxrss=%M', process.execPath, BIN, 'tools', 'check', '--root', root], { cwd: REPO, env: { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: home }, encoding: 'utf8', timeout: 60_000 });
    const out = `${run.stdout}\n${run.stderr}`;
    for (const rel of ['big.py', 'big.ts', 'tl/tool.json']) expect(out).toMatch(new RegExp(`${join(root, rel).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: error: Cannot (load|read|load module): larger than 8 MB`));
    const rssKb = Number(/maxrss=(\d+)/.exec(run.stderr)?.[1]);
    expect(rssKb).toBeLessThan(300 * 1024);
  }, 90_000);
});
