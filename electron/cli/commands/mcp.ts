// `tooldesk mcp <sub-command>`: the dispatcher. Add a sub-command with its own file and one line
// in MCP_SUBCOMMANDS.
import type { Command } from '../command.ts';
import { UsageError } from '../command.ts';
import { mcpAddCommand, mcpRemoveCommand } from './mcp-add.ts';
import { mcpDisableCommand, mcpEnableCommand } from './mcp-enable.ts';
import { mcpImportCommand } from './mcp-import.ts';
import { mcpListCommand } from './mcp-list.ts';
import { mcpLogsCommand } from './mcp-logs.ts';
import { mcpLogCommand } from './mcp-log.ts';
import { mcpServeCommand } from './mcp-serve.ts';

export const MCP_SUBCOMMANDS: Command[] = [mcpListCommand, mcpAddCommand, mcpRemoveCommand, mcpEnableCommand, mcpDisableCommand, mcpImportCommand, mcpLogsCommand, mcpServeCommand, mcpLogCommand];

function usage(): string {
  const width = Math.max(...MCP_SUBCOMMANDS.map((c) => c.name.length));
  return [
    'Usage: tooldesk mcp <sub-command> [options]',
    '',
    ...MCP_SUBCOMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Each MCP server is a tool group named after it; its tools are SERVER__tool.',
    'Run `tooldesk mcp <sub-command> --help` for its options.',
  ].join('\n');
}

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'MCP: add, import and inspect MCP servers (each one a tool group); serve your tools to MCP hosts',
  get usage() {
    return usage();
  },
  async run(argv, io) {
    const [name, ...rest] = argv;
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      io.stdout.write(`${usage()}\n`);
      return name === undefined ? 2 : 0;
    }
    const sub = MCP_SUBCOMMANDS.find((c) => c.name === name);
    if (!sub) throw new UsageError(`unknown sub-command "${name}"`);
    // `add NAME -- COMMAND --help` passes --help to the server's command, not to us.
    const ours = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
    if (ours.includes('--help') || ours.includes('-h')) {
      io.stdout.write(`${sub.usage.trimEnd()}\n`);
      return 0;
    }
    try {
      return await sub.run(rest, io);
    } catch (error) {
      if (error instanceof UsageError) {
        io.stderr.write(`tooldesk mcp ${name}: ${error.message}\n\n${sub.usage.trimEnd()}\n`);
        return 2;
      }
      throw error;
    }
  },
};
