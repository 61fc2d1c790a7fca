// The settings side of the API over the SettingsStore: shallow patches (top-level keys replace,
// the whole document validated and written at once, one change event) and enable toggles.
import type { SettingsStore } from '../store/settings-store.ts';
import type { SettingsService } from './services.ts';

export function createSettingsService(store: SettingsStore): SettingsService {
  return {
    get: () => store.get(),
    patch(patch) {
      store.replace({ ...store.get(), ...patch });
      return store.get();
    },
    // Deep merge (update), not a dotted path: group and tool names may contain dots.
    setGroupEnabled: (group, enabled) => store.update({ groupDefaults: { [group]: enabled } }),
    setToolEnabled: (tool, enabled) => store.update({ toolDefaults: { [tool]: enabled } }),
    onDidChange: (listener) => store.onDidChange((settings) => listener(settings)),
  };
}
