// Issue 20 §6: huge files cost bounded memory. A session log of any size is shown a message at a
// time. A 150 MB settings.json (made sparse here: its
// size is what matters) is refused with a clear message before it is read, by every command
// and by the store's own reread; memory stays that of an idle command.
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_SETTINGS_BYTES, openSettingsStore } from '../../electron/runtime/store/settings-store.ts';
import { AFTER_THE_HOLE, HUGE_SESSION_ID, writeHugeSession } from '../support/huge-session.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(REPO, 'electron/cli/bin.mjs');

function sparseFile(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
}

describe('huge files', () => {
  it('a 600 MB session (a 500 MB line among its records) is listed from its head, and `sessions show` streams it in bounded memory', () => {
    const home = mkdtempSync(join(tmpdir(), 'td-huge-session-'));
    const id = HUGE_SESSION_ID;
    const file = writeHugeSession(home, { branchBytes: 80 * 1024 * 1024, holeBytes: 500 * 1024 * 1024 });
    const env = { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: home };
    const cli = (...args: string[]) => spawnSync('/usr/bin/time', ['-f', 'maxrss=%M', process.execPath, BIN, ...args], { cwd: REPO, env, encoding: 'utf8', timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
    const peakMb = (stderr: string) => Number(/maxrss=(\d+)/.exec(stderr)?.[1]) / 1024;
    const list = cli('sessions', 'list');
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain(id);
    expect(list.stdout).toContain('Say hello (580 MB: too large to open)');
    expect(peakMb(list.stderr)).toBeLessThan(300);
    const show = cli('sessions', 'show', id);
    expect(show.status, show.stderr).toBe(0);
    // The shown path: the fixture's messages, not the 1 MB side branch the head moved away from,
    // then the message written after the over-long line.
    expect(show.stdout).toContain('# Say hello  (mwub5amm-291a60, 89 messages, 0 variables)');
    expect(show.stdout).toMatch(/> Say hello\n\nHello \*\*there\*\*!\n\n> Echo hi please[\s\S]*> Still here after the hole\n\n$/);
    expect(show.stdout).not.toContain('xxxx');
    expect(show.stderr).toContain(`tooldesk: warning: ${file}:92: skipped a line of 500 MB, more than the 32 MB a record may be; it was not read.`);
    console.log(`sessions show of a ${Math.round(statSync(file).size / 1024 ** 2)} MB session: peak ${peakMb(show.stderr).toFixed(0)} MB`);
    expect(peakMb(show.stderr)).toBeLessThan(200);
    const json = cli('sessions', 'show', id, '--json');
    expect(json.status, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as { session: { messageCount: number }; messages: Array<{ content: string }>; variables: unknown[] };
    expect(doc.session.messageCount).toBe(89);
    expect(doc.messages.map((m) => m.content).at(-1)).toBe(AFTER_THE_HOLE);
    expect(doc.messages).toHaveLength(9);
    expect(peakMb(json.stderr)).toBeLessThan(200);
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
    for (const rel of ['big.py', 'big.ts', 'tl/tool.json']) expect(out).toMatch(new RegExp(`${join(root, rel).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: error: Cannot (load|read|load module): 1024\\.0 MB, more than the 5\\.0 MB a tool source may be \\(settings: limits\\.toolSourceMaxBytes\\), so it was not read`));
    const rssKb = Number(/maxrss=(\d+)/.exec(run.stderr)?.[1]);
    expect(rssKb).toBeLessThan(300 * 1024);
  }, 90_000);

  it('a 6 MB Python tool source gets a diagnostic naming its size, the limit and the setting; raising the setting loads it', () => {
    const home = mkdtempSync(join(tmpdir(), 'td-source-limit-'));
    const root = mkdtempSync(join(tmpdir(), 'td-source-limit-root-'));
    const file = join(root, 'padded.py');
    writeFileSync(file, `def padded() -> str:\n    \"\"\"A tool with a large comment below.\"\"\"\n    return "ok"\n\n${`${'# padding'.padEnd(63, ' x')}\n`.repeat((6 * 1024 * 1024 - 100) / 64)}`);
    const env = { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: home };
    const check = () => spawnSync(process.execPath, [BIN, 'tools', 'check', '--root', root], { cwd: REPO, env, encoding: 'utf8', timeout: 60_000 });
    const refused = check();
    expect(refused.status).toBe(1);
    expect(`${refused.stdout}${refused.stderr}`).toContain(`${file}: error: Cannot load: 6.0 MB, more than the 5.0 MB a tool source may be (settings: limits.toolSourceMaxBytes), so it was not read`);
    expect(`${refused.stdout}${refused.stderr}`).toContain('tooldesk config set limits.toolSourceMaxBytes');
    const set = spawnSync(process.execPath, [BIN, 'config', 'set', 'limits.toolSourceMaxBytes', String(8 * 1024 * 1024)], { cwd: REPO, env, encoding: 'utf8' });
    expect(set.status, set.stderr).toBe(0);
    const loaded = check();
    expect(`${loaded.stdout}${loaded.stderr}`).not.toContain('a tool source may be');
    expect(loaded.status, `${loaded.stdout}${loaded.stderr}`).toBe(0);
    const list = spawnSync(process.execPath, [BIN, 'tools', 'list', '--root', root], { cwd: REPO, env, encoding: 'utf8', timeout: 60_000 });
    expect(list.stdout).toContain('padded');
  }, 120_000);
});
