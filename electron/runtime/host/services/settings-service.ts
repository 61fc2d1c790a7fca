// The settings side of the API over the SettingsStore: shallow patches (top-level keys replace,
// the whole document validated and written at once, one change event) and enable toggles.
import { parseSettings } from '../../store/parse-settings.ts';
import { SettingsValidationError, type SettingsStore } from '../../store/settings-store.ts';
import type { SecretService, SettingsService } from './services.ts';

export function createSettingsService(store: SettingsStore): SettingsService {
  return {
    get: () => store.get(),
    patch(patch) {
      store.replace({ ...store.get(), ...patch });
      return store.get();
    },
    check(patch) {
      const parsed = parseSettings({ ...store.get(), ...patch });
      if (!parsed.ok) throw new SettingsValidationError(`Invalid settings: ${parsed.problems.join('; ')}`);
    },
    // Deep merge (update), not a dotted path: group and tool names may contain dots.
    setGroupEnabled: (group, enabled) => store.update({ groupDefaults: { [group]: enabled } }),
    setToolEnabled: (tool, enabled) => store.update({ toolDefaults: { [tool]: enabled } }),
    onDidChange: (listener) => store.onDidChange((settings) => listener(settings)),
  };
}

/**
 * Stores `changes` (name → value; null deletes) and returns how to put the previous values back,
 * so a settings save that fails after them leaves the keychain as it was. A change that fails
 * undoes the ones before it and throws.
 */
export async function applySecretChanges(secrets: SecretService, changes: Record<string, string | null>): Promise<() => Promise<void>> {
  const undo: Array<() => Promise<unknown>> = [];
  const rollback = async () => {
    for (const step of undo.splice(0).reverse()) await step().catch(() => {});
  };
  try {
    for (const [name, value] of Object.entries(changes)) {
      const before = await secrets.get(name);
      if (value === null) await secrets.delete(name);
      else await secrets.set(name, value);
      undo.push(() => (before === null ? secrets.delete(name) : secrets.set(name, before)));
    }
  } catch (error) {
    await rollback();
    throw error;
  }
  return rollback;
}
