// Done means, third bullet, with real `tooldesk serve` processes: a schedule `--every 1m` runs on
// time (within 5 s of its slot; a real minute is waited for), two serve processes on one home run
// it once, and a start after ten minutes with nothing running runs a missed schedule once, late.
import { describe, expect, it, vi } from 'vitest';
import type { ScheduleRun } from '../../../shared/schedules.ts';
import { RunStore } from '../../../electron/runtime/schedules/run-store.ts';
import { openSettingsStore } from '../../../electron/runtime/store/settings-store.ts';
import { runCli } from '../../support/run-cli.ts';
import { useServeHomes } from '../../support/serve-homes.ts';

vi.setConfig({ testTimeout: 180_000 });

const { home: newHome, serve } = useServeHomes();

/** Waits (reading the run records on disk) until `count` runs of `name` ended. */
async function endedRuns(home: string, name: string, count: number, withinMs: number): Promise<ScheduleRun[]> {
  const store = new RunStore(home);
  const deadline = Date.now() + withinMs;
  for (;;) {
    const ended = store.runs(name).filter((run) => run.endedAt !== undefined);
    if (ended.length >= count || Date.now() > deadline) return ended;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('schedules on time under serve', () => {
  it('runs `--every 1m` within 5 s of its slot, once, with two serve processes on the home', async () => {
    const home = newHome();
    const added = await runCli(home, ['schedule', 'add', 'minutely', '--every', '1m', '--prompt', 'tick']);
    expect(added.code).toBe(0);
    const pair = await Promise.all([serve(home), serve(home)]);
    const createdAt = openSettingsStore(home).get().schedules![0]!.createdAt!;
    const slot = createdAt + 60_000;

    const [run] = await endedRuns(home, 'minutely', 1, slot - Date.now() + 30_000);
    expect(run, 'a run within 30 s of its slot').toBeDefined();
    expect(run).toMatchObject({ status: 'done', trigger: 'timer', slot });
    expect(run!.late).toBeUndefined();
    expect(Math.abs(run!.startedAt - slot)).toBeLessThanOrEqual(5000);
    // The other process stood by: a few seconds later still one run of that slot.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(new RunStore(home).runs('minutely').filter((r) => r.slot === slot)).toHaveLength(1);
    expect(new RunStore(home).runs('minutely')).toHaveLength(1);
    expect(pair.filter((server) => server.output().includes('runs the schedules of this home'))).toHaveLength(1);
  });

  it('after ten minutes with nothing running, a start runs a missed schedule once, marked late', async () => {
    const home = newHome();
    const now = Date.now();
    // As a home looks when its last run was 10 minutes ago and nothing ran since.
    const settings = openSettingsStore(home);
    settings.update({ schedules: [{ name: 'missed', prompt: 'catch up', every: '1m', createdAt: now - 11 * 60_000 }] });
    settings.close();
    new RunStore(home).updateState('missed', { coveredUntil: now - 10 * 60_000 });

    await serve(home);
    const runs = await endedRuns(home, 'missed', 1, 30_000);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'done', late: true, trigger: 'timer' });
    expect(runs[0]!.slot).toBe(now - 9 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(new RunStore(home).runs('missed')).toHaveLength(1);
  });
});
