// `tooldesk rules list`, `tooldesk toolset list`: one list kept in the settings, a line per item,
// or the whole list as JSON with --json.
import type { Settings } from '../../shared/settings.ts';
import { withCliRuntime } from './cli-runtime.ts';
import { UsageError, type Command } from './command.ts';
import { flag, parseArgs } from './parse-args.ts';

export interface SettingsListSpec<T> {
  /** The command group (`rules`): the usage reads `tooldesk rules list [--json]`. */
  group: string;
  summary: string;
  items(settings: Settings): readonly T[] | undefined;
  /** The line printed when the list is empty: says how to add an item. */
  empty: string;
  line(item: T, index: number): string;
}

export function settingsListCommand<T>(spec: SettingsListSpec<T>): Command {
  return {
    name: 'list',
    summary: spec.summary,
    usage: `Usage: tooldesk ${spec.group} list [--json]`,
    async run(argv, io) {
      const args = parseArgs(argv, { booleans: ['json'] });
      if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
      return withCliRuntime(io, async (runtime) => {
        const items = spec.items(runtime.settings.get()) ?? [];
        if (flag(args, 'json')) io.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
        else if (items.length === 0) io.stdout.write(`${spec.empty}\n`);
        else items.forEach((item, i) => io.stdout.write(`${spec.line(item, i)}\n`));
        return 0;
      });
    },
  };
}
