// `tooldesk mcp <sub-command>`: the dispatcher. Add a sub-command with its own file and one line
// in MCP_SUBCOMMANDS (the MCP client's sub-commands live beside these).
import type { Command } from '../command.ts';
import { UsageError } from '../command.ts';
import { mcpLogCommand } from './mcp-log.ts';
import { mcpServeCommand } from './mcp-serve.ts';

export const MCP_SUBCOMMANDS: Command[] = [mcpServeCommand, mcpLogCommand];

function usage(): string {
  const width = Math.max(...MCP_SUBCOMMANDS.map((c) => c.name.length));
  return [
    'Usage: tooldesk mcp <sub-command> [options]',
    '',
    ...MCP_SUBCOMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `tooldesk mcp <sub-command> --help` for its options.',
  ].join('\n');
}

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Model Context Protocol: serve your tools to MCP hosts',
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
    if (rest.includes('--help') || rest.includes('-h')) {
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
