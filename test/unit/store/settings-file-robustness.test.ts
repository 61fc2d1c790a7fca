// settings.json that is not a regular file, and writes that fail (a full disk): refused or
// reported in one line naming the file and what to do; nothing blocks, nothing half-changes.
// Also: a save from the Settings page is one write and one change event.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { FileError } from '../../../electron/runtime/base/file-error.ts';
import { createSettingsService } from '../../../electron/runtime/host/services/settings-service.ts';
import { parseSettings } from '../../../electron/runtime/store/parse-settings.ts';
import { jsonFileBackend } from '../../../electron/runtime/store/json-file-backend.ts';
import type { SettingsBackendFactory } from '../../../electron/runtime/store/settings-backend.ts';
import { openSettingsStore, SettingsValidationError } from '../../../electron/runtime/store/settings-store.ts';
import { defaultSettings } from '../../../shared/settings.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'td-'));

const errno = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}`), { code });

/** The JSON file backend, whose writes start failing with `code` once `failing.on` is set (what a full disk does to writeFileSync). */
function failingConf(failing: { on: boolean; code: string; writes: number }): SettingsBackendFactory {
  return (options) => {
    const real = jsonFileBackend(options);
    return {
      get path() {
        return real.path;
      },
      get store() {
        return real.store;
      },
      set store(value) {
        if (failing.on) throw errno(failing.code, `no space left on device, write '${real.path}'`);
        failing.writes++;
        real.store = value;
      },
      onDidAnyChange: (cb) => real.onDidAnyChange(cb),
    };
  };
}

describe('parseSettings', () => {
  it('types a document at the edge: defaults filled, problems named, non-objects refused', () => {
    const parsed = parseSettings({ systemPrompt: 'hi', limits: { maxSteps: 3 } });
    expect(parsed.ok && parsed.settings.limits).toEqual({ ...defaultSettings().limits, maxSteps: 3 });
    expect(parseSettings({ limits: { maxSteps: 0 } })).toEqual({ ok: false, problems: [expect.stringMatching(/limits\.maxSteps/)] });
    expect(parseSettings([1])).toEqual({ ok: false, problems: ['it does not hold a JSON object'] });
    expect(parseSettings(null).ok).toBe(false);
  });
});

describe('settings.json that is not a regular file', () => {
  it('a FIFO is refused at once with a clear message (never blocks on open)', () => {
    const home = tmp();
    execFileSync('mkfifo', [join(home, 'settings.json')]);
    const started = Date.now();
    let error: unknown;
    try {
      openSettingsStore(home);
    } catch (caught) {
      error = caught;
    }
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(FileError);
    expect((error as FileError).message).toBe(
      `Settings file ${join(home, 'settings.json')} is a FIFO (named pipe), not a regular file. Move it away (Tooldesk then writes the default settings there) or set TOOLDESK_HOME to another folder.`,
    );
  });

  it('a folder is refused the same way (no EISDIR stack trace)', () => {
    const home = tmp();
    mkdirSync(join(home, 'settings.json'));
    expect(() => openSettingsStore(home)).toThrow(/settings\.json is a folder, not a regular file\. Move it away/);
  });
});

describe('settings written by another process (watch)', () => {
  it('picks up valid writes, and keeps the settings when a FIFO or a folder replaces the file (never blocks)', async () => {
    const home = tmp();
    const file = join(home, 'settings.json');
    const store = openSettingsStore(home, { watch: true, watchDebounceMs: 20 });
    const seen: string[] = [];
    store.onDidChange((s) => seen.push(s.systemPrompt));
    try {
      // An atomic save by another program (temp file + rename), like the CLI's.
      writeFileSync(`${file}.tmp`, JSON.stringify({ systemPrompt: 'from the CLI' }));
      renameSync(`${file}.tmp`, file);
      await vi.waitFor(() => expect(store.get().systemPrompt).toBe('from the CLI'), { timeout: 5000 });

      rmSync(file);
      execFileSync('mkfifo', [file]);
      await vi.waitFor(() => expect(store.warnings.join('\n')).toMatch(/is a FIFO \(named pipe\), not a regular file.*Keeping the previous settings/), { timeout: 5000 });
      expect(store.get().systemPrompt).toBe('from the CLI');

      rmSync(file);
      writeFileSync(file, '{"systemPrompt": ');
      await vi.waitFor(() => expect(store.warnings.at(-1)).toMatch(/not valid JSON.*Keeping the previous settings/), { timeout: 5000 });

      writeFileSync(file, JSON.stringify({ systemPrompt: 'fixed' }));
      await vi.waitFor(() => expect(store.get().systemPrompt).toBe('fixed'), { timeout: 5000 });
      expect(seen).toEqual(['from the CLI', 'fixed']);
    } finally {
      store.close();
    }
  });
});

describe('settings writes that fail', () => {
  it('a full disk: one line naming the file and what to do; the settings and the file stay as they were', () => {
    const home = tmp();
    const failing = { on: false, code: 'ENOSPC', writes: 0 };
    const store = openSettingsStore(home, { backend: failingConf(failing) });
    store.set('systemPrompt', 'before');
    const onDisk = readFileSync(store.path, 'utf8');
    const events: string[] = [];
    store.onDidChange((s) => events.push(s.systemPrompt));

    failing.on = true;
    let error: unknown;
    try {
      store.set('systemPrompt', 'after');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FileError);
    expect((error as Error).message).toBe(`Could not save settings to ${store.path}: the disk is full; free some space and try again (ENOSPC). The settings were not changed.`);
    expect((error as Error).message).not.toMatch(/\n/);
    expect(store.get().systemPrompt).toBe('before');
    expect(readFileSync(store.path, 'utf8')).toBe(onDisk);
    expect(events).toEqual([]);

    // Space freed: the next save works.
    failing.on = false;
    store.set('systemPrompt', 'after');
    expect(store.get().systemPrompt).toBe('after');
    expect(events).toEqual(['after']);
    store.close();
  });

  it('a read-only home at start: the settings are still read, with a warning instead of a crash', () => {
    const home = tmp();
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ systemPrompt: 'kept' }));
    const failing = { on: true, code: 'EROFS', writes: 0 };
    const store = openSettingsStore(home, { backend: failingConf(failing) });
    expect(store.get().systemPrompt).toBe('kept');
    expect(store.warnings).toEqual([expect.stringMatching(/^Could not write .*settings\.json: the file system is read-only; set TOOLDESK_HOME to a writable folder \(EROFS\)\. Using the settings as read/)]);
    expect(() => store.set('systemPrompt', 'x')).toThrow(FileError);
    store.close();
  });
});

describe('a save from the Settings page', () => {
  it('is one write and one change event, however many keys it changes', () => {
    const home = tmp();
    const failing = { on: false, code: 'ENOSPC', writes: 0 };
    const store = openSettingsStore(home, { backend: failingConf(failing) });
    const service = createSettingsService(store);
    const events: number[] = [];
    store.onDidChange(() => events.push(failing.writes));
    const before = failing.writes;
    const saved = service.patch({
      systemPrompt: 'new',
      providers: [{ id: 'p', name: 'P', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1', model: 'm' }],
      activeProviderId: 'p',
      limits: { ...defaultSettings().limits, maxSteps: 9 },
    });
    expect(saved).toMatchObject({ systemPrompt: 'new', activeProviderId: 'p', limits: { maxSteps: 9 } });
    expect(failing.writes - before).toBe(1);
    expect(events).toHaveLength(1);
    // An unchanged save writes nothing and announces nothing.
    service.patch({ systemPrompt: 'new' });
    expect(failing.writes - before).toBe(1);
    expect(events).toHaveLength(1);
    // An invalid one changes nothing, including the valid keys sent with it.
    expect(() => service.patch({ systemPrompt: 'other', activeProviderId: 5 as never })).toThrow(SettingsValidationError);
    expect(store.get().systemPrompt).toBe('new');
    expect(events).toHaveLength(1);
    store.close();
  });
});
