// The settings backend for the Electron app: electron-store on the same `<home>/settings.json`
// that `conf` uses in the CLI. Lives here because electron-store imports `electron` at load;
// runtime code never imports this file. Use: openSettingsStore(home, {backend: electronStoreBackend, watch: true}).
import ElectronStore from 'electron-store';
import type { SettingsBackend, SettingsBackendFactory } from '../runtime/store/settings-backend.ts';

export const electronStoreBackend: SettingsBackendFactory = ({ cwd, configName, watch }) =>
  new ElectronStore<Record<string, unknown>>({ cwd, name: configName, watch, clearInvalidConfig: false }) as unknown as SettingsBackend;
