// A schedule command runs where the home's schedules run: in the live app or `tooldesk serve` that
// owns them (over its control endpoint), else in this process, which owns them for the command.
import type { ScheduleRun } from '../../../../shared/schedules.ts';
import { askOwner, type ControlRequest } from '../../../runtime/schedules/control-client.ts';
import type { Scheduler } from '../../../runtime/schedules/scheduler.ts';
import { toolDeskHome } from '../../../runtime/paths.ts';
import { openCliRuntime } from '../../cli-runtime.ts';
import type { CliIO } from '../../command.ts';

export async function ownerOrHere<T extends ScheduleRun | ScheduleRun[]>(io: CliIO, request: ControlRequest, here: (scheduler: Scheduler) => Promise<T>): Promise<T> {
  const remote = await askOwner<T>(toolDeskHome(io.env), request);
  if (remote !== undefined) return remote;
  const runtime = await openCliRuntime(io, { tools: {}, log: (message) => io.stderr.write(`tooldesk: ${message}\n`) });
  try {
    return await here(await runtime.scheduler());
  } finally {
    await runtime.close();
  }
}
