// The settings backend outside Electron: `<cwd>/<configName>.json`, written the way conf and
// electron-store write it (tab-indented JSON, a temporary file fsynced then renamed over it), so
// the CLI, browser mode and the app share one file. conf itself loaded ajv, ajv-formats and
// semver (190 KB of bundle) at every command start for features the settings store does not use.
import { mkdirSync, readFileSync } from 'node:fs';
import { writeAtomically } from '../base/write-atomically.ts';
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
