// `tooldesk mcp log`: kept for old scripts as an alias of `tooldesk audit` (the decisions of every
// caller: the app, chat, tools run, mcp serve), with the same options; it says so on stderr.
// `mcp serve`'s connection events are entries of kind `mcp-serve` in the same audit files.
import { AUDIT_USAGE, runAudit } from './audit.ts';
import type { Command } from '../command.ts';

export const mcpLogCommand: Command = {
  name: 'log',
  summary: 'Alias of `tooldesk audit` (kept for old scripts)',
  usage: ['`tooldesk mcp log` is now `tooldesk audit`, with the same options.', '', AUDIT_USAGE].join('\n'),
  async run(argv, io) {
    io.stderr.write('`mcp log` is now `tooldesk audit`\n');
    return runAudit(argv, io, 'tooldesk mcp log');
  },
};
