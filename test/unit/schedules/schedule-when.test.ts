import { describe, expect, it } from 'vitest';
import { nextSlot, parseCron, parseEvery } from '../../../electron/runtime/schedules/schedule-when.ts';

const at = (iso: string) => Date.parse(iso);

describe('parseEvery', () => {
  it('reads s, m, h, d and refuses what is not a duration or shorter than a minute', () => {
    expect(parseEvery('30m')).toEqual({ ok: true, ms: 30 * 60_000 });
    expect(parseEvery('2h')).toEqual({ ok: true, ms: 2 * 3_600_000 });
    expect(parseEvery('1d')).toEqual({ ok: true, ms: 86_400_000 });
    expect(parseEvery('90s')).toEqual({ ok: true, ms: 90_000 });
    expect(parseEvery('30s')).toMatchObject({ ok: false, message: expect.stringContaining('shortest interval is 1m') });
    expect(parseEvery('soon')).toMatchObject({ ok: false, message: expect.stringContaining('e.g. 30m, 2h or 1d') });
    expect(parseEvery('5w')).toMatchObject({ ok: false });
  });
});

describe('parseCron', () => {
  it('insists on five fields and names the problem', () => {
    expect(parseCron('0 9 * * 1-5').ok).toBe(true);
    expect(parseCron('0 0 9 * * 1-5')).toMatchObject({ ok: false, message: expect.stringContaining('has 6 fields') });
    expect(parseCron('61 * * * *')).toMatchObject({ ok: false, message: expect.stringContaining('not a valid cron expression') });
    expect(parseCron('0 9 * * *', 'Mars/Olympus')).toMatchObject({ ok: false, message: expect.stringContaining('not a time zone') });
  });
});

describe('nextSlot', () => {
  it('anchors every-slots at creation: the first comes one interval after, a restart keeps the phase', () => {
    const timing = { kind: 'every' as const, ms: 60_000, anchor: at('2026-11-28T10:00:30Z') };
    expect(nextSlot(timing, at('2026-11-28T10:00:30Z'))).toBe(at('2026-11-28T10:01:30Z'));
    expect(nextSlot(timing, at('2026-11-28T10:01:29Z'))).toBe(at('2026-11-28T10:01:30Z'));
    expect(nextSlot(timing, at('2026-11-28T10:01:30Z'))).toBe(at('2026-11-28T10:02:30Z'));
    expect(nextSlot(timing, at('2026-11-28T10:13:00Z'))).toBe(at('2026-11-28T10:13:30Z'));
  });

  it('matches cron in the schedule\'s time zone, across a DST change', () => {
    const berlin = parseCron('0 9 * * 1-5', 'Europe/Berlin');
    if (!berlin.ok) throw new Error(berlin.message);
    // Saturday 28 Nov 2026 → Monday 30 Nov, 09:00 in Berlin = 08:00 UTC (winter time).
    expect(nextSlot({ kind: 'cron', cron: berlin.cron }, at('2026-11-28T10:00:00Z'))).toBe(at('2026-11-30T08:00:00Z'));
    // Friday 27 Mar 2026 09:00 CET = 08:00 UTC; Monday 30 Mar 09:00 CEST = 07:00 UTC.
    expect(nextSlot({ kind: 'cron', cron: berlin.cron }, at('2026-03-27T07:59:00Z'))).toBe(at('2026-03-27T08:00:00Z'));
    expect(nextSlot({ kind: 'cron', cron: berlin.cron }, at('2026-03-27T08:00:00Z'))).toBe(at('2026-03-30T07:00:00Z'));
    const ny = parseCron('30 6 1 * *', 'America/New_York');
    if (!ny.ok) throw new Error(ny.message);
    expect(nextSlot({ kind: 'cron', cron: ny.cron }, at('2026-11-28T10:00:00Z'))).toBe(at('2026-12-01T11:30:00Z'));
  });
});
