// The settings backend outside Electron: `<cwd>/<configName>.json`, written the way conf and
// electron-store write it (tab-indented JSON, a temporary file fsynced then renamed over it), so
// the CLI, browser mode and the app share one file. conf itself loaded ajv, ajv-formats and
// semver (190 KB of bundle) at every command start for features the settings store does not use.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Emitter } from '../base/emitter.ts';
import type { JsonObject } from './dotted-path.ts';
import type { SettingsBackend, SettingsBackendFactory } from './settings-backend.ts';

export const jsonFileBackend: SettingsBackendFactory = ({ cwd, configName }) => {
  const path = join(cwd, `${configName}.json`);
  mkdirSync(cwd, { recursive: true });
  // A listener that throws never undoes the write or stops the others (the emitter's policy).
  const changed = new Emitter<void>();
  const backend: SettingsBackend = {
    path,
    get store(): JsonObject {
      try {
        return JSON.parse(readFileSync(path, 'utf8')) as JsonObject;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
        throw error;
      }
    },
    set store(value: JsonObject) {
      writeAtomically(path, `${JSON.stringify(value, undefined, '\t')}`);
      changed.fire();
    },
    onDidAnyChange(callback) {
      return changed.event(callback);
    },
  };
  return backend;
};

/** The whole text or nothing: a crash or a full disk mid-write leaves the old file in place. */
function writeAtomically(path: string, text: string): void {
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    const fd = openSync(temp, 'w', 0o666);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
