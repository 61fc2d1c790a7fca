// The settings' `schedules` entries, checked one by one: a broken entry is reported with its place
// and field ("schedules[2].cron: …") and does not run, while the others do. The settings schema
// only says "an array of objects" so one bad schedule never resets the settings file.
import { isAbsolute } from 'node:path';
import { PERMISSION_LEVELS, type PermissionLevel } from '../../../shared/permissions.ts';
import { DEFAULT_SCHEDULE_LIMITS, ON_ASK_CHOICES, type OnAsk, type ScheduleConfig, type ScheduleLimits } from '../../../shared/schedules.ts';
import type { Settings } from '../../../shared/settings.ts';
import { parseCron, parseEvery, type Timing } from './schedule-when.ts';

export const SCHEDULE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface CheckedSchedule {
  config: ScheduleConfig;
  /** Absent when the entry has a problem. */
  timing?: Timing;
  problem?: string;
}

const KEYS = new Set(['name', 'prompt', 'every', 'cron', 'timezone', 'toolSet', 'permissions', 'onAsk', 'cwd', 'providerId', 'model', 'enabled', 'createdAt']);

/** One entry; `anchor` is used for `every` when the entry has no createdAt (written by hand). */
export function checkSchedule(entry: unknown, where: string, anchor: number): CheckedSchedule {
  const raw = (entry && typeof entry === 'object' && !Array.isArray(entry) ? entry : {}) as Record<string, unknown>;
  const name = typeof raw.name === 'string' ? raw.name : '';
  const config = { ...raw, name } as ScheduleConfig;
  const fail = (field: string, message: string): CheckedSchedule => ({ config, problem: `${where}${field ? `.${field}` : ''}: ${message}` });
  if (raw !== entry) return fail('', 'must be an object with name, prompt and every or cron');
  if (!SCHEDULE_NAME.test(name)) return fail('name', `${JSON.stringify(raw.name ?? null)} is not a schedule name (letters, digits, ".", "-", "_"; up to 64)`);
  const unknown = Object.keys(raw).find((key) => !KEYS.has(key));
  if (unknown) return fail(unknown, `unknown field (known: ${[...KEYS].join(', ')})`);
  if (typeof raw.prompt !== 'string' || raw.prompt.trim() === '') return fail('prompt', 'must be the text to send (non-empty)');
  for (const key of ['every', 'cron', 'timezone', 'toolSet', 'cwd', 'providerId', 'model'] as const) {
    if (raw[key] !== undefined && typeof raw[key] !== 'string') return fail(key, 'must be a string');
  }
  if (typeof raw.cwd === 'string' && !isAbsolute(raw.cwd)) return fail('cwd', `${JSON.stringify(raw.cwd)} is not an absolute path (the folder its tools run in, e.g. /home/me/notes)`);
  if (raw.enabled !== undefined && typeof raw.enabled !== 'boolean') return fail('enabled', 'must be true or false');
  if (raw.createdAt !== undefined && (typeof raw.createdAt !== 'number' || !Number.isFinite(raw.createdAt))) return fail('createdAt', 'must be a time in ms');
  if (raw.permissions !== undefined && !PERMISSION_LEVELS.includes(raw.permissions as PermissionLevel)) return fail('permissions', `must be one of ${PERMISSION_LEVELS.join(', ')}`);
  if (raw.onAsk !== undefined && !ON_ASK_CHOICES.includes(raw.onAsk as OnAsk)) return fail('onAsk', `must be one of ${ON_ASK_CHOICES.join(', ')}`);
  if ((raw.every === undefined) === (raw.cron === undefined)) return fail(raw.every === undefined ? 'every' : 'cron', 'give exactly one of every (e.g. "30m") and cron (e.g. "0 9 * * 1-5")');
  if (raw.every !== undefined) {
    const every = parseEvery(raw.every as string);
    if (!every.ok) return fail('every', every.message);
    return { config, timing: { kind: 'every', ms: every.ms, anchor: (raw.createdAt as number | undefined) ?? anchor } };
  }
  const cron = parseCron(raw.cron as string, raw.timezone as string | undefined);
  if (!cron.ok) return fail(raw.timezone !== undefined && cron.message.includes('time zone') ? 'timezone' : 'cron', cron.message);
  return { config, timing: { kind: 'cron', cron: cron.cron } };
}

/** Every entry of the settings, checked; a second entry under a taken name is a problem. */
export function checkSchedules(settings: Settings, anchor: (name: string) => number): CheckedSchedule[] {
  const seen = new Set<string>();
  const entries = Array.isArray(settings.schedules) ? settings.schedules : [];
  return entries.map((entry, i) => {
    const checked = checkSchedule(entry, `schedules[${i}]`, anchor(typeof entry?.name === 'string' ? entry.name : ''));
    if (!checked.problem && seen.has(checked.config.name)) return { config: checked.config, problem: `schedules[${i}].name: "${checked.config.name}" is taken by an earlier schedule` };
    seen.add(checked.config.name);
    return checked;
  });
}

/** The run bounds: the settings' values over the defaults. */
export function scheduleLimits(settings: Settings): ScheduleLimits {
  return { ...DEFAULT_SCHEDULE_LIMITS, ...(settings.scheduleLimits ?? {}) };
}
