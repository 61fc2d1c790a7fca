// The settings document's storage, behind the part of electron-store that the settings store uses:
// a JSON file in Node (json-file-backend.ts), electron-store in the app (electron/main/).
import type { JsonObject } from './dotted-path.ts';

/** The part of electron-store (and json-file-backend.ts) the settings store uses. */
export interface SettingsBackend {
  readonly path: string;
  store: JsonObject;
  /** Contract: called after any change (ours or, with `watch`, another process's). Returns unsubscribe. */
  onDidAnyChange(callback: () => void): () => void;
  _closeWatcher?(): void;
}

export interface SettingsBackendOptions {
  cwd: string;
  configName: string;
  watch: boolean;
}

export type SettingsBackendFactory = (options: SettingsBackendOptions) => SettingsBackend;
