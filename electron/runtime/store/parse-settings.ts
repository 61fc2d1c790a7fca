// The settings document typed at its edge: whatever was read (a file, another process's write, a
// patch) becomes a `Settings` here, with defaults for missing keys, or the problems that forbid it.
// Nothing else casts to Settings.
import { defaultSettings, type Settings } from '../../../shared/settings.ts';
import { deepMerge, isPlainObject, type JsonObject } from './dotted-path.ts';
import { validateSettings } from './validate-settings.ts';

export type ParsedSettings = { ok: true; settings: Settings } | { ok: false; problems: string[] };

/** `data` over the defaults (a file written by an older version lacks newer keys), checked against the schema. */
export function parseSettings(data: unknown): ParsedSettings {
  if (!isPlainObject(data)) return { ok: false, problems: ['it does not hold a JSON object'] };
  const merged = deepMerge(defaultSettings() as unknown as JsonObject, data);
  const problems = validateSettings(merged);
  // Checked against SETTINGS_SCHEMA, which mirrors the Settings type: the one place it is asserted.
  return problems.length > 0 ? { ok: false, problems } : { ok: true, settings: merged as unknown as Settings };
}

/** The settings as a plain JSON object (for dotted-path edits and the backend). */
export const settingsJson = (settings: Settings): JsonObject => settings as unknown as JsonObject;
