// `tooldesk tools <sub-command>`: the dispatcher. Add a sub-command with its own file and one
// line in TOOLS_SUBCOMMANDS (`new` and `enable`/`disable` come from their owners).
import type { Command } from '../command.ts';
import { UsageError } from '../command.ts';
import { toolsCheckCommand } from './tools-check.ts';
import { toolsDisableCommand, toolsEnableCommand } from './tools-enable.ts';
import { toolsListCommand } from './tools-list.ts';
import { toolsNewCommand } from './tools-new.ts';
import { toolsPolicyCommand } from './tools-policy.ts';
import { toolsRunCommand } from './tools-run.ts';
import { toolsTrustCommand, toolsUntrustCommand } from './tools-trust.ts';

export const TOOLS_SUBCOMMANDS: Command[] = [toolsListCommand, toolsCheckCommand, toolsRunCommand, toolsEnableCommand, toolsDisableCommand, toolsNewCommand, toolsPolicyCommand, toolsTrustCommand, toolsUntrustCommand];

function usage(): string {
  const width = Math.max(...TOOLS_SUBCOMMANDS.map((c) => c.name.length));
  return [
    'Usage: tooldesk tools <sub-command> [options]',
    '',
    ...TOOLS_SUBCOMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `tooldesk tools <sub-command> --help` for its options.',
  ].join('\n');
}

export const toolsCommand: Command = {
  name: 'tools',
  summary: 'List, check and run your tools',
  get usage() {
    return usage();
  },
  async run(argv, io) {
    const [name, ...rest] = argv;
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      io.stdout.write(`${usage()}\n`);
      return name === undefined ? 2 : 0;
    }
    const sub = TOOLS_SUBCOMMANDS.find((c) => c.name === name);
    if (!sub) throw new UsageError(`unknown sub-command "${name}"`);
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(`${sub.usage.trimEnd()}\n`);
      return 0;
    }
    try {
      return await sub.run(rest, io);
    } catch (error) {
      if (error instanceof UsageError) {
        io.stderr.write(`tooldesk tools ${name}: ${error.message}\n\n${sub.usage.trimEnd()}\n`);
        return 2;
      }
      throw error;
    }
  },
};
