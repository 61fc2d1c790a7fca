// `tooldesk schedule list` and `schedule runs NAME`: read from the settings and the run records
// on disk (no scheduler, no chat, no tools are loaded).
import type { AuditEntry } from '../../../../shared/permissions.ts';
import { listSchedules } from '../../../runtime/schedules/due-schedules.ts';
import { RunStore } from '../../../runtime/schedules/run-store.ts';
import { runAuditLines } from '../../../runtime/schedules/run-audit.ts';
import { withCliRuntime } from '../../cli-runtime.ts';
import { UsageError, type Command } from '../../command.ts';
import { flag, parseArgs } from '../../parse-args.ts';
import { runLine, scheduleLine } from './schedule-text.ts';

export const listCommand: Command = {
  name: 'list',
  summary: 'List the schedules with their next run',
  usage: 'Usage: tooldesk schedule list [--json]',
  async run(argv, io) {
    const args = parseArgs(argv, { booleans: ['json'] });
    if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    return withCliRuntime(io, async (runtime) => {
      const infos = listSchedules(runtime.settings.get(), new RunStore(runtime.home), Date.now());
      if (flag(args, 'json')) io.stdout.write(`${JSON.stringify(infos, null, 2)}\n`);
      else if (infos.length === 0) io.stdout.write('No schedules. `tooldesk schedule add NAME --every 1d --prompt "…"` makes one.\n');
      else for (const info of infos) io.stdout.write(`${scheduleLine(info)}\n`);
      return 0;
    });
  },
};

export const runsCommand: Command = {
  name: 'runs',
  summary: 'The runs of the schedule NAME: start, end, status, calls and their audit lines',
  usage: 'Usage: tooldesk schedule runs NAME [--json]',
  async run(argv, io) {
    const args = parseArgs(argv, { booleans: ['json'] });
    const [name, ...extra] = args.positionals;
    if (!name) throw new UsageError('missing the schedule NAME');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    return withCliRuntime(io, async (runtime) => {
      const store = new RunStore(runtime.home);
      const runs = store.runs(name);
      const withAudit = runs.map((run) => ({ ...run, audit: runAuditLines(runtime.home, run) }));
      if (flag(args, 'json')) io.stdout.write(`${JSON.stringify(withAudit, null, 2)}\n`);
      else if (runs.length === 0) io.stdout.write(`Schedule ${name} has no runs yet.\n`);
      else for (const run of withAudit) io.stdout.write(`${runLine(run)}\n${run.audit.map((line) => `    ${auditText(line)}\n`).join('')}`);
      for (const warning of store.warnings) io.stderr.write(`tooldesk: warning: ${warning}\n`);
      return 0;
    });
  },
};

function auditText(entry: AuditEntry): string {
  return `${entry.at}  ${entry.tool}  ${entry.decision} by ${entry.by}${entry.detail ? ` (${entry.detail})` : ''}${entry.status ? `  ${entry.status}` : ''}`;
}
