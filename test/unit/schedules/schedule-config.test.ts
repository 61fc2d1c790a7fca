import { describe, expect, it } from 'vitest';
import { checkSchedule, checkSchedules, scheduleLimits } from '../../../electron/runtime/schedules/schedule-config.ts';
import { defaultSettings } from '../../../shared/settings.ts';
import { DEFAULT_SCHEDULE_LIMITS } from '../../../shared/schedules.ts';

describe('checkSchedule', () => {
  it('accepts an every and a cron schedule', () => {
    expect(checkSchedule({ name: 'a', prompt: 'p', every: '1h', createdAt: 5 }, 's', 0)).toMatchObject({ timing: { kind: 'every', ms: 3_600_000, anchor: 5 } });
    expect(checkSchedule({ name: 'b', prompt: 'p', cron: '*/5 * * * *', timezone: 'UTC' }, 's', 0).timing?.kind).toBe('cron');
  });

  it('names the entry and the field of each problem', () => {
    expect(checkSchedule({ name: 'a', prompt: 'p' }, 'schedules[0]', 0).problem).toBe('schedules[0].every: give exactly one of every (e.g. "30m") and cron (e.g. "0 9 * * 1-5")');
    expect(checkSchedule({ name: 'a', prompt: 'p', every: '1h', cron: '* * * * *' }, 'schedules[0]', 0).problem).toMatch(/^schedules\[0\]\.cron: give exactly one/);
    expect(checkSchedule({ name: 'a b', prompt: 'p', every: '1h' }, 'schedules[1]', 0).problem).toMatch(/^schedules\[1\]\.name: "a b" is not a schedule name/);
    expect(checkSchedule({ name: 'a', prompt: ' ', every: '1h' }, 's', 0).problem).toMatch(/^s\.prompt: /);
    expect(checkSchedule({ name: 'a', prompt: 'p', every: '1x' }, 's', 0).problem).toMatch(/^s\.every: "1x" is not a duration/);
    expect(checkSchedule({ name: 'a', prompt: 'p', cron: '* * *' }, 's', 0).problem).toMatch(/^s\.cron: .* has 3 fields/);
    expect(checkSchedule({ name: 'a', prompt: 'p', cron: '* * * * *', timezone: 'Nowhere/City' }, 's', 0).problem).toMatch(/^s\.timezone: /);
    expect(checkSchedule({ name: 'a', prompt: 'p', every: '1h', permissions: 'root' }, 's', 0).problem).toMatch(/^s\.permissions: must be one of ask, default/);
    expect(checkSchedule({ name: 'a', prompt: 'p', every: '1h', onAsk: 'maybe' }, 's', 0).problem).toMatch(/^s\.onAsk: must be one of pause, deny/);
    expect(checkSchedule({ name: 'a', prompt: 'p', every: '1h', colour: 'red' }, 's', 0).problem).toMatch(/^s\.colour: unknown field/);
    expect(checkSchedule('nope', 's', 0).problem).toMatch(/^s: must be an object/);
  });

  it('reports a second entry under a taken name and keeps the others', () => {
    const settings = { ...defaultSettings(), schedules: [{ name: 'a', prompt: 'p', every: '1h' }, { name: 'a', prompt: 'q', every: '2h' }, { name: 'b', prompt: 'p', every: 'x' }] };
    const checked = checkSchedules(settings, () => 0);
    expect(checked.map((c) => c.problem ?? 'ok')).toEqual(['ok', 'schedules[1].name: "a" is taken by an earlier schedule', expect.stringMatching(/^schedules\[2\]\.every:/)]);
  });

  it('fills run limits from the defaults', () => {
    expect(scheduleLimits(defaultSettings())).toEqual(DEFAULT_SCHEDULE_LIMITS);
    expect(scheduleLimits({ ...defaultSettings(), scheduleLimits: { maxToolCalls: 3 } }).maxToolCalls).toBe(3);
  });
});
