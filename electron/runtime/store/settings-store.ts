// The settings document behind a small interface. A JSON file in Node (CLI, tests, browser mode);
// the Electron app passes an electron-store backend (electron/main/electron-store-backend.ts).
// Both write the same `<home>/settings.json`. A corrupt or invalid file never crashes: it is
// backed up to `settings.json.corrupt-<timestamp>`, replaced by defaults, and a warning is kept.
// Something that is not a regular file there (a folder, a FIFO) is refused, without blocking; a
// failed write (disk full) says so in one line and changes nothing.
import { closeSync, constants, copyFileSync, fstatSync, openSync, readFileSync, rmSync, statSync, watch as watchFolder, type FSWatcher, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../../../shared/settings.ts';
import { Emitter } from '../base/emitter.ts';
import { FileError, fileError } from '../base/file-error.ts';
import { deepMerge, withPath, type JsonObject } from './dotted-path.ts';
import { jsonFileBackend } from './json-file-backend.ts';
import type { SettingsBackend, SettingsBackendFactory } from './settings-backend.ts';
import { parseSettings, settingsJson } from './parse-settings.ts';

export interface SettingsStoreOptions {
  /** The JSON file backend (default) or another, e.g. electron-store in the app. */
  backend?: SettingsBackendFactory;
  /** Pick up writes by other processes (the CLI while the app runs). */
  watch?: boolean;
  /** Quiet time after a file event before the file is read again (ms). */
  watchDebounceMs?: number;
}

export type SettingsListener = (settings: Settings, previous: Settings) => void;

export interface SettingsStore {
  readonly path: string;
  /** A copy of the current, valid settings. */
  get(): Settings;
  /** Sets a top-level key or a dotted path ("limits.maxSteps"). Throws SettingsValidationError or FileError. */
  set<K extends keyof Settings>(key: K, value: Settings[K]): void;
  set(path: string, value: unknown): void;
  /** Deep-merges plain objects; arrays and scalars replace. Throws SettingsValidationError. */
  update(patch: Partial<Settings> | JsonObject): void;
  /**
   * Replaces the whole document in one write with one change event (a save from the Settings
   * page). Throws SettingsValidationError, or FileError when it cannot be written (nothing changes).
   */
  replace(next: Settings): void;
  onDidChange(listener: SettingsListener): () => void;
  /** Problems found while opening (corrupt file replaced, external invalid write ignored). */
  readonly warnings: string[];
  close(): void;
}

export class SettingsValidationError extends Error {
  override name = 'SettingsValidationError';
}

export const SETTINGS_CONFIG_NAME = 'settings';

function backupCorrupt(file: string, now = new Date()): string {
  const backup = `${file}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
  try {
    copyFileSync(file, backup);
  } catch (error) {
    throw fileError('back up the unusable settings file', file, error, 'It was left as it is; fix or remove it.');
  }
  return backup;
}

function describeKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

const notRegular = (file: string, stats: Stats) =>
  new FileError(
    file,
    `Settings file ${file} is ${describeKind(stats)}, not a regular file. Move it away (Tooldesk then writes the default settings there) or set TOOLDESK_HOME to another folder.`,
  );

/**
 * The file's text, or null when there is none. Opened non-blocking and checked on the open handle,
 * so a FIFO never blocks and a swap between check and read cannot slip through. Throws FileError.
 */
/** The largest settings.json read (its real size is a few KB). */
export const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;

function readRegularFile(file: string): string | null {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw fileError('read', file, error);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notRegular(file, stats);
    // Settings are a few KB: a huge file is refused before it is read (150 MB cost 1.8 GB).
    if (stats.size > MAX_SETTINGS_BYTES) {
      throw new FileError(file, `Could not read ${file}: it is ${megabytes(stats.size)}, more than the ${megabytes(MAX_SETTINGS_BYTES)} a settings file may be, so it was not read. Move it away (Tooldesk then starts with the defaults) or cut it down to the settings you set.`, 'EFBIG');
    }
    return readFileSync(fd, 'utf8');
  } catch (error) {
    throw fileError('read', file, error);
  } finally {
    closeSync(fd);
  }
}

/** Reads the file as it is on disk: `ok` with the data (null: no file), or the reason it cannot be used. */
function readSettingsFile(file: string): { ok: true; data: JsonObject | null; settings: Settings } | { ok: false; problem: string } {
  const text = readRegularFile(file);
  if (text === null) return { ok: true, data: null, settings: parseOrThrow({}) };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `it is not valid JSON (${(error as Error).message})` };
  }
  const parsed = parseSettings(data);
  if (!parsed.ok) return { ok: false, problem: parsed.problems.join('; ') };
  return { ok: true, data: data as JsonObject, settings: parsed.settings };
}

function parseOrThrow(data: unknown): Settings {
  const parsed = parseSettings(data);
  if (!parsed.ok) throw new SettingsValidationError(`Invalid settings: ${parsed.problems.join('; ')}`);
  return parsed.settings;
}

export function openSettingsStore(home: string, options: SettingsStoreOptions = {}): SettingsStore {
  const factory = options.backend ?? jsonFileBackend;
  const file = join(home, `${SETTINGS_CONFIG_NAME}.json`);
  const warnings: string[] = [];

  const initial = readSettingsFile(file);
  let current: Settings;
  if (initial.ok) current = initial.settings;
  else {
    const backup = backupCorrupt(file);
    rmSync(file, { force: true }); // the backend would refuse to open it; defaults are written below
    warnings.push(
      `Settings file ${file} could not be used: ${initial.problem}. It was saved as ${backup} and replaced by the defaults.`,
    );
    current = parseOrThrow({});
  }

  let backend: SettingsBackend;
  try {
    // The store watches the file itself (below): the backends' own watchers read it with a plain,
    // blocking read, which never returns if a FIFO is put in its place.
    backend = factory({ cwd: home, configName: SETTINGS_CONFIG_NAME, watch: false });
  } catch (error) {
    throw fileError('open', file, error);
  }
  // Write back: fills missing keys and replaces a corrupt file with defaults. Not being able to
  // (a read-only or full disk) still leaves the settings usable for this run.
  if (!initial.ok || JSON.stringify(initial.data) !== JSON.stringify(current)) {
    try {
      backend.store = { ...settingsJson(current) };
    } catch (error) {
      warnings.push(fileError('write', file, error, 'Using the settings as read; changes cannot be saved until this is fixed.').message);
    }
  }

  const changed = new Emitter<{ next: Settings; previous: Settings }>({
    onListenerError: (error) => warnings.push(`A settings listener failed: ${(error as Error).message}`),
  });
  let writing = false;

  /** Writes `next` (validated) as the whole document, then makes it current: a failed write changes nothing. */
  const commit = (next: unknown) => {
    const settings = parseOrThrow(next);
    if (JSON.stringify(settings) === JSON.stringify(current)) return;
    writing = true;
    try {
      backend.store = settingsJson(settings);
    } catch (error) {
      throw fileError('save settings to', file, error, 'The settings were not changed.');
    } finally {
      writing = false;
    }
    const previous = current;
    current = settings;
    changed.fire({ next: current, previous });
  };

  /** Takes in a document another process wrote, if valid and different; else keeps the current one with a warning. */
  const takeOutside = (data: unknown) => {
    const parsed = parseSettings(data);
    if (!parsed.ok) {
      warnings.push(`Settings file ${file} changed on disk to something invalid (${parsed.problems.join('; ')}). Keeping the previous settings.`);
      return;
    }
    if (JSON.stringify(parsed.settings) === JSON.stringify(current)) return;
    const previous = current;
    current = parsed.settings;
    changed.fire({ next: current, previous });
  };
  const unreadable = (error: unknown) =>
    warnings.push(`Settings file ${file} changed on disk but could not be read: ${(error as Error).message.replace(/\.$/, '')}. Keeping the previous settings.`);

  // Writes by other processes: the folder is watched (an atomic save replaces the file, which a
  // watch on the file itself would lose) and the file read without ever blocking.
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  const reread = () => {
    timer = undefined;
    let text: string | null;
    try {
      text = readRegularFile(file);
    } catch (error) {
      unreadable(error);
      return;
    }
    if (text === null) return; // deleted: the next save writes it again
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      // (A writer that is not atomic may be caught mid-write: its next event brings the rest.)
      warnings.push(`Settings file ${file} changed on disk to something that is not valid JSON (${(error as Error).message}). Keeping the previous settings.`);
      return;
    }
    takeOutside(data);
  };
  if (options.watch) {
    try {
      watcher = watchFolder(home, (_event, name) => {
        if (name !== null && name.toString() !== `${SETTINGS_CONFIG_NAME}.json`) return;
        clearTimeout(timer);
        timer = setTimeout(reread, options.watchDebounceMs ?? 50);
      });
      watcher.on('error', (error) => warnings.push(`Settings changes made outside Tooldesk are no longer picked up: ${error.message}`));
    } catch (error) {
      warnings.push(`Settings changes made outside Tooldesk will not be picked up until restart: ${(error as Error).message}`);
    }
  }

  // Changes made directly on the backend (not through this store).
  const unsubscribe = backend.onDidAnyChange(() => {
    if (writing) return;
    let store: JsonObject;
    try {
      // A backend reading the file would block on a FIFO swapped in: look first (stat never blocks).
      const stats = statSync(file, { throwIfNoEntry: false });
      if (stats && !stats.isFile()) throw notRegular(file, stats);
      store = backend.store;
    } catch (error) {
      unreadable(error);
      return;
    }
    takeOutside(store);
  });

  return {
    path: file,
    warnings,
    get: () => structuredClone(current),
    set: (path: string, value: unknown) => commit(withPath(settingsJson(current), path, value)),
    update: (patch) => commit(deepMerge(settingsJson(current), patch as JsonObject)),
    replace: (next) => commit(next),
    onDidChange: (listener) => changed.event(({ next, previous }) => listener(structuredClone(next), structuredClone(previous))),
    close() {
      unsubscribe();
      clearTimeout(timer);
      watcher?.close();
      changed.dispose();
      backend._closeWatcher?.();
    },
  };
}
