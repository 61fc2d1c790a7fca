// How the CLI prints schedules, runs and Inbox questions (one line each, the words of the issue:
// done, waiting, failed, denied).
import type { InboxItem, ScheduleInfo, ScheduleRun } from '../../../../shared/schedules.ts';

const time = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');

export function scheduleLine(info: ScheduleInfo): string {
  const { config } = info;
  const when = config.every ? `every ${config.every}` : `cron "${config.cron}"${config.timezone ? ` ${config.timezone}` : ''}`;
  const state = info.problem ? `BROKEN: ${info.problem}` : config.enabled === false ? 'disabled' : info.lastRun?.status === 'waiting' ? 'waiting for you' : info.nextRunAt ? `next ${time(info.nextRunAt)}` : 'no next run';
  const last = info.lastRun ? `; last ${info.lastRun.status}${info.lastRun.late ? ' (late)' : ''} at ${time(info.lastRun.startedAt)}` : '';
  const extras = [config.toolSet ? `toolset ${config.toolSet}` : '', config.permissions ? `permissions ${config.permissions}` : '', config.onAsk === 'deny' ? 'on-ask deny' : ''].filter(Boolean);
  return `${config.name}  ${when}  ${state}${last}${extras.length ? `  [${extras.join(', ')}]` : ''}`;
}

export function runLine(run: ScheduleRun): string {
  const took = run.endedAt ? ` ended ${time(run.endedAt)}` : '';
  return `${run.id}  ${run.status}${run.late ? ' (late)' : ''}  started ${time(run.startedAt)}${took}  ${run.calls} call(s), ${run.steps} step(s)${run.reason ? `  — ${run.reason}` : ''}`;
}

export function inboxLine(item: InboxItem): string {
  const what = item.kind === 'elicitation' ? `${item.toolName} asks: ${item.message ?? ''}` : `${item.kind === 'result-approval' ? 'send the result of' : 'run'} ${item.toolName} ${JSON.stringify(item.args ?? {})}`;
  return `${item.id}  ${item.schedule}  ${time(item.askedAt)}  ${what}`;
}

/** What `schedule run` and `inbox approve` print: the run's id and status, then what it waits on. */
export function runResult(run: ScheduleRun): string {
  const lines = [`${run.id} ${run.status}${run.reason ? ` — ${run.reason}` : ''}`];
  for (const item of run.waitingOn) lines.push(`  waiting: ${inboxLine(item)}  (tooldesk inbox approve ${item.id})`);
  return `${lines.join('\n')}\n`;
}
