// The settings side of the API over the SettingsStore: shallow patches (top-level keys replace,
// validated as a whole before anything is written) and enable toggles.
import type { Settings } from '../../../shared/settings.ts';
import { SettingsValidationError, type SettingsStore } from '../store/settings-store.ts';
import { validateSettings } from '../store/validate-settings.ts';
import type { SettingsService } from './services.ts';

export function createSettingsService(store: SettingsStore): SettingsService {
  return {
    get: () => store.get(),
    patch(patch) {
      const next = { ...store.get(), ...patch } as Settings;
      const problems = validateSettings(next);
      if (problems.length > 0) throw new SettingsValidationError(`Invalid settings: ${problems.join('; ')}`);
      for (const key of Object.keys(patch) as (keyof Settings)[]) {
        if (JSON.stringify(store.get()[key]) !== JSON.stringify(patch[key])) store.set(key, patch[key] as never);
      }
      return store.get();
    },
    // Deep merge (update), not a dotted path: group and tool names may contain dots.
    setGroupEnabled: (group, enabled) => store.update({ groupDefaults: { [group]: enabled } }),
    setToolEnabled: (tool, enabled) => store.update({ toolDefaults: { [tool]: enabled } }),
    onDidChange: (listener) => store.onDidChange((settings) => listener(settings)),
  };
}
