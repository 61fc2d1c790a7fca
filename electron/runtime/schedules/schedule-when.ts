// When a schedule runs: `every` durations (30m, 2h, 1d) and five-field cron expressions in a time
// zone. Cron matching is croner's (maintained, no dependencies, time zones and DST handled); this
// module insists on exactly five fields (croner also takes seconds and years) and turns both kinds
// into one question: the first slot strictly after a time.
//
// Slots of `every` are anchored at the schedule's creation (created + k·interval), so the first run
// comes one interval after `schedule add` and a restart does not shift the phase.
import { Cron } from 'croner';

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
export const MIN_EVERY_MS = 60_000;

/** `every` in ms, or a message saying what is wrong. */
export function parseEvery(text: string): { ok: true; ms: number } | { ok: false; message: string } {
  const match = /^\s*(\d+)\s*([smhd])\s*$/i.exec(text);
  if (!match) return { ok: false, message: `"${text}" is not a duration: write a number and a unit, e.g. 30m, 2h or 1d (s, m, h, d)` };
  const ms = Number(match[1]) * UNIT_MS[match[2]!.toLowerCase() as keyof typeof UNIT_MS];
  if (ms < MIN_EVERY_MS) return { ok: false, message: `"${text}" is shorter than a minute; the shortest interval is 1m` };
  return { ok: true, ms };
}

/** True when `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The system's time zone (what `schedule add` records for a cron schedule). */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A compiled cron expression, or a message naming the problem. */
export function parseCron(expression: string, timezone?: string): { ok: true; cron: Cron } | { ok: false; message: string } {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) return { ok: false, message: `"${expression}" has ${fields.length} field${fields.length === 1 ? '' : 's'}; a cron expression has five: minute hour day-of-month month day-of-week (e.g. "0 9 * * 1-5")` };
  if (timezone !== undefined && !isTimeZone(timezone)) return { ok: false, message: `"${timezone}" is not a time zone; use an IANA name such as Europe/Berlin or UTC` };
  try {
    return { ok: true, cron: new Cron(fields.join(' '), { paused: true, ...(timezone ? { timezone } : {}) }) };
  } catch (error) {
    return { ok: false, message: `"${expression}" is not a valid cron expression (${(error as Error).message.replace(/^CronPattern: /, '')})` };
  }
}

/** When a schedule's slots fall. */
export type Timing = { kind: 'every'; ms: number; anchor: number } | { kind: 'cron'; cron: Cron };

/** The first slot strictly after `after` (ms), or null when there is none (a cron date that never comes). */
export function nextSlot(timing: Timing, after: number): number | null {
  if (timing.kind === 'every') {
    if (after < timing.anchor) return timing.anchor + timing.ms;
    return timing.anchor + (Math.floor((after - timing.anchor) / timing.ms) + 1) * timing.ms;
  }
  return timing.cron.nextRun(new Date(after))?.getTime() ?? null;
}
