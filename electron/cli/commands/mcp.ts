// `tooldesk mcp <sub-command>`: the dispatcher. Add a sub-command with its own file and one line
// in MCP_SUBCOMMANDS.
import type { Command } from '../command.ts';
import { commandGroup } from '../command-group.ts';
import { mcpAddCommand, mcpRemoveCommand } from './mcp-add.ts';
import { mcpAllowWriteCommand } from './mcp-allow-write.ts';
import { mcpInstallCommand } from './mcp-install.ts';
import { mcpSearchCommand } from './mcp-registry.ts';
import { mcpDisableCommand, mcpEnableCommand } from './mcp-enable.ts';
import { mcpImportCommand } from './mcp-import.ts';
import { mcpListCommand } from './mcp-list.ts';
import { mcpLogsCommand } from './mcp-logs.ts';
import { mcpLogCommand } from './mcp-log.ts';
import { mcpServeCommand } from './mcp-serve.ts';

export const MCP_SUBCOMMANDS: Command[] = [mcpListCommand, mcpAddCommand, mcpRemoveCommand, mcpEnableCommand, mcpDisableCommand, mcpImportCommand, mcpInstallCommand, mcpSearchCommand, mcpAllowWriteCommand, mcpLogsCommand, mcpServeCommand, mcpLogCommand];

export const mcpCommand: Command = commandGroup({
  name: 'mcp',
  summary: 'MCP: add, import and inspect MCP servers (each one a tool group); serve your tools to MCP hosts',
  subcommands: MCP_SUBCOMMANDS,
  footer: ['Each MCP server is a tool group named after it; its tools are SERVER__tool.'],
});
