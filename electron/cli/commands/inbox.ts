// `tooldesk inbox [--json]`, `inbox approve ID`, `inbox reject ID [--reason TEXT]`: the questions
// paused scheduled runs wait on. An answer resumes the run where it stopped (in the process that
// owns the schedules, or here) and prints how the run goes on: its id and status.
import { RunStore } from '../../runtime/schedules/run-store.ts';
import { withCliRuntime } from '../cli-runtime.ts';
import { UsageError, type Command } from '../command.ts';
import { flag, option, parseArgs } from '../parse-args.ts';
import { ownerOrHere } from './schedule/owner-or-here.ts';
import { report } from './schedule/schedule-run.ts';
import { inboxLine } from './schedule/schedule-text.ts';

export const inboxCommand: Command = {
  name: 'inbox',
  summary: 'Questions paused scheduled runs wait on; approve or reject them to resume the runs',
  usage: [
    'Usage: tooldesk inbox [--json]',
    '       tooldesk inbox approve ID [--content JSON]',
    '       tooldesk inbox reject ID [--reason TEXT]',
    '',
    'Lists each waiting question with its id. approve runs the call once (or sends the result, or',
    'accepts a server\'s form with --content {"field": value}); reject refuses it, and the reason',
    'reaches the model. Either resumes the run where it stopped and returns when it ends or pauses.',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['reason', 'content'], booleans: ['json'] });
    const [verb, id, ...extra] = args.positionals;
    if (verb === undefined) {
      return withCliRuntime(io, async (runtime) => {
        const items = new RunStore(runtime.home).inbox();
        if (flag(args, 'json')) io.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
        else if (items.length === 0) io.stdout.write('The Inbox is empty: no scheduled run waits for you.\n');
        else for (const item of items) io.stdout.write(`${inboxLine(item)}\n`);
        return 0;
      });
    }
    if (verb !== 'approve' && verb !== 'reject') throw new UsageError(`unknown sub-command "${verb}" (approve, reject, or none to list)`);
    if (!id) throw new UsageError(`missing the question ID (see \`tooldesk inbox\`)`);
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    let content: Record<string, string | number | boolean> | undefined;
    const contentText = option(args, 'content');
    if (contentText !== undefined) {
      try {
        content = JSON.parse(contentText) as Record<string, string | number | boolean>;
      } catch (error) {
        throw new UsageError(`--content is not JSON: ${(error as Error).message}`);
      }
    }
    const reason = option(args, 'reason');
    const answer = { decision: verb === 'approve' ? ('approve' as const) : ('reject' as const), ...(reason ? { reason } : {}), ...(content ? { content } : {}) };
    return report(io, flag(args, 'json'), () => ownerOrHere(io, { path: '/answer', body: { id, ...answer } }, (scheduler) => scheduler.answer(id, answer)));
  },
};
