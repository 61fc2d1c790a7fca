import { describe, expect, it } from 'vitest';
import type { ScheduleRun } from '../../../shared/schedules.ts';
import { dueSchedules, LATE_MS, scheduleInfos } from '../../../electron/runtime/schedules/due-schedules.ts';
import { checkSchedule } from '../../../electron/runtime/schedules/schedule-config.ts';

const MIN = 60_000;
const T0 = Date.parse('2026-11-28T10:00:00Z');
const every = (name: string, extra: Record<string, unknown> = {}) => checkSchedule({ name, prompt: 'p', every: '1m', createdAt: T0, ...extra }, name, T0);
const run = (schedule: string, status: ScheduleRun['status']): ScheduleRun => ({ id: `run-${schedule}x1`, schedule, sessionId: 's', trigger: 'timer', startedAt: T0, status, calls: 0, steps: 0, waitingOn: [], refused: 0 });

describe('dueSchedules', () => {
  it('is not due before the first interval has passed, then due on time (not late)', () => {
    expect(dueSchedules([every('a')], {}, [], T0 + MIN - 1)).toMatchObject({ due: [], wakeAt: T0 + MIN });
    const check = dueSchedules([every('a')], {}, [], T0 + MIN + 2000);
    expect(check.due).toEqual([expect.objectContaining({ slot: T0 + MIN, late: false })]);
    expect(check.wakeAt).toBe(T0 + 2 * MIN);
  });

  it('gives one late run for many missed slots', () => {
    const now = T0 + 10 * MIN + 30_000;
    const check = dueSchedules([every('a')], { a: { coveredUntil: T0 + MIN } }, [], now);
    expect(check.due).toHaveLength(1);
    expect(check.due[0]).toMatchObject({ slot: T0 + 2 * MIN, late: true });
    expect(now - check.due[0]!.slot).toBeGreaterThan(LATE_MS);
  });

  it('starts nothing for a schedule whose last run waits, and none for a disabled or broken one', () => {
    const now = T0 + 5 * MIN;
    const check = dueSchedules([every('a'), every('b', { enabled: false }), checkSchedule({ name: 'c', prompt: 'p', every: 'x' }, 'c', T0)], {}, [run('a', 'waiting')], now);
    expect(check.due).toEqual([]);
    expect(check.skipped).toEqual(['a']);
  });
});

describe('scheduleInfos', () => {
  it('shows the next run, the last run, and no next run while waiting', () => {
    const [info] = scheduleInfos([every('a')], { a: { sessionId: 'chat1', coveredUntil: T0 + MIN } }, [run('a', 'done')], T0 + MIN + 1);
    expect(info).toMatchObject({ nextRunAt: T0 + 2 * MIN, lastRun: { status: 'done' }, sessionId: 'chat1' });
    expect(scheduleInfos([every('a')], {}, [run('a', 'waiting')], T0)[0]!.nextRunAt).toBeNull();
  });
});
