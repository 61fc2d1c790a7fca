import type { Settings } from '../../../shared/settings.ts';
import { useApp } from '../store/app-context.tsx';

/**
 * Reads the settings and saves a top-level patch, with the secrets that go with it (name → value,
 * null deletes) in the same call: all saved or nothing. The answer is applied like settings.changed.
 */
export function useSettings() {
  const app = useApp();
  return {
    settings: () => app.state.settings,
    async save(patch: Partial<Settings>, secrets?: Record<string, string | null>): Promise<boolean> {
      const next = await app.guard(() => app.api.setSettings({ patch, ...(secrets ? { secrets } : {}) }));
      if (next) app.apply({ type: 'settings.changed', settings: next });
      return next !== undefined;
    },
  };
}
