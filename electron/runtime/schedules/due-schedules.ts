// Which schedules are due now, and when to look again: a pure function of the checked schedules,
// what the run store says about them and the time. Missed slots (nothing was running) give ONE
// run, marked late when its slot is more than LATE_MS old; a schedule with a run still going or
// waiting for the user starts none (its missed slots are skipped).
import type { ScheduleInfo, ScheduleRun } from '../../../shared/schedules.ts';
import type { Settings } from '../../../shared/settings.ts';
import { checkSchedules, type CheckedSchedule } from './schedule-config.ts';
import type { RunStore, ScheduleState } from './run-store.ts';
import { nextSlot } from './schedule-when.ts';

/** A slot started later than this after its time counts as late (a missed run). */
export const LATE_MS = 60_000;

export interface DueSchedule {
  schedule: CheckedSchedule;
  slot: number;
  late: boolean;
}

export interface DueCheck {
  due: DueSchedule[];
  /** Slots skipped because the schedule's last run still goes on or waits: covered up to now. */
  skipped: string[];
  /** The earliest next slot of any runnable schedule (ms), or null. */
  wakeAt: number | null;
}

/** The time up to which a schedule's slots are covered (its last run's slot, else when it was added or first seen). */
export function coveredUntil(schedule: CheckedSchedule, state: ScheduleState | undefined, now: number): number {
  return state?.coveredUntil ?? schedule.config.createdAt ?? state?.firstSeenAt ?? now;
}

export function isBusy(runs: readonly ScheduleRun[], name: string): ScheduleRun | undefined {
  return runs.find((run) => run.schedule === name && (run.status === 'running' || run.status === 'waiting'));
}

export function dueSchedules(schedules: readonly CheckedSchedule[], state: Record<string, ScheduleState>, runs: readonly ScheduleRun[], now: number): DueCheck {
  const check: DueCheck = { due: [], skipped: [], wakeAt: null };
  for (const schedule of schedules) {
    if (!schedule.timing || schedule.config.enabled === false) continue;
    const slot = nextSlot(schedule.timing, coveredUntil(schedule, state[schedule.config.name], now));
    if (slot === null) continue;
    if (slot <= now) {
      if (isBusy(runs, schedule.config.name)) check.skipped.push(schedule.config.name);
      else check.due.push({ schedule, slot, late: now - slot > LATE_MS });
      const after = nextSlot(schedule.timing, now);
      if (after !== null) check.wakeAt = Math.min(check.wakeAt ?? after, after);
    } else check.wakeAt = Math.min(check.wakeAt ?? slot, slot);
  }
  return check;
}

/** What Settings and `schedule list` show of each schedule. */
export function scheduleInfos(schedules: readonly CheckedSchedule[], state: Record<string, ScheduleState>, runs: readonly ScheduleRun[], now: number): ScheduleInfo[] {
  return schedules.map((schedule) => {
    const name = schedule.config.name;
    const last = runs.filter((run) => run.schedule === name).at(-1);
    const runnable = schedule.timing && schedule.config.enabled !== false && !isBusy(runs, name);
    const next = runnable ? nextSlot(schedule.timing!, coveredUntil(schedule, state[name], now)) : null;
    const sessionId = state[name]?.sessionId;
    return {
      config: schedule.config,
      ...(schedule.problem ? { problem: schedule.problem } : {}),
      // A slot already past runs at the next start (or tick): shown as now.
      nextRunAt: next === null ? null : Math.max(next, now),
      ...(last ? { lastRun: { id: last.id, status: last.status, startedAt: last.startedAt, ...(last.endedAt ? { endedAt: last.endedAt } : {}), ...(last.late ? { late: true } : {}), ...(last.reason ? { reason: last.reason } : {}) } } : {}),
      ...(sessionId ? { sessionId } : {}),
    };
  });
}

/** The settings' schedules, checked against what the store says (an `every` written by hand is anchored where first seen, else now). */
export function checkedSchedules(settings: Settings, store: RunStore, now: number): CheckedSchedule[] {
  const state = store.state();
  return checkSchedules(settings, (name) => state[name]?.firstSeenAt ?? now);
}

/** `schedule list` and Settings: every schedule with its next run, read from disk (no scheduler needed). */
export function listSchedules(settings: Settings, store: RunStore, now: number): ScheduleInfo[] {
  return scheduleInfos(checkedSchedules(settings, store, now), store.state(), store.runs(), now);
}
