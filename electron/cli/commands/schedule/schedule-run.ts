// `tooldesk schedule run NAME` and `schedule run-due`: a run now, in the process that owns the
// home's schedules (or here); each returns when its run ends or pauses and prints id and status.
import { ScheduleError } from '../../../runtime/schedules/scheduler.ts';
import { ControlError } from '../../../runtime/schedules/control-client.ts';
import type { ScheduleRun } from '../../../../shared/schedules.ts';
import { UsageError, type CliIO, type Command } from '../../command.ts';
import { flag, parseArgs } from '../../parse-args.ts';
import { ownerOrHere } from './owner-or-here.ts';
import { runResult } from './schedule-text.ts';

export const runCommand: Command = {
  name: 'run',
  summary: 'Run the schedule NAME once now; returns when the run ends or pauses',
  usage: [
    'Usage: tooldesk schedule run NAME [--json]',
    '',
    'Runs in the app or `tooldesk serve` that owns this home\'s schedules when one is running, else',
    'here. Prints the run\'s id and status (done, waiting, failed, denied); a waiting run lists its',
    'questions: answer them with `tooldesk inbox approve|reject ID`.',
    'Exit status: 0 for done or waiting, 1 for failed or denied.',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { booleans: ['json'] });
    const [name, ...extra] = args.positionals;
    if (!name) throw new UsageError('missing the schedule NAME');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    return report(io, flag(args, 'json'), () => ownerOrHere(io, { path: '/run', body: { name } }, (scheduler) => scheduler.runNow(name)));
  },
};

export const runDueCommand: Command = {
  name: 'run-due',
  summary: 'Run whatever is due now and exit (for an OS timer: see install-timer)',
  usage: [
    'Usage: tooldesk schedule run-due [--json]',
    '',
    'Runs each schedule whose time has come (once, marked late when its time is long past), waits',
    'until each run ends or pauses, prints them and exits. When the app or `tooldesk serve` owns',
    'the schedules, it is asked instead (it runs them on time by itself anyway).',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { booleans: ['json'] });
    if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    return report(io, flag(args, 'json'), () => ownerOrHere(io, { path: '/run-due', body: {} }, (scheduler) => scheduler.runDue()));
  },
};

/** Prints runs (or the error) and turns them into the exit status. */
export async function report(io: CliIO, json: boolean, work: () => Promise<ScheduleRun | ScheduleRun[]>): Promise<number> {
  let runs: ScheduleRun[];
  try {
    const result = await work();
    runs = Array.isArray(result) ? result : [result];
  } catch (error) {
    if (!(error instanceof ScheduleError || error instanceof ControlError)) throw error;
    io.stderr.write(`tooldesk schedule: ${error.message}\n`);
    return 1;
  }
  if (json) io.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
  else for (const run of runs) io.stdout.write(runResult(run));
  return runs.some((run) => run.status === 'failed' || run.status === 'denied') ? 1 : 0;
}
