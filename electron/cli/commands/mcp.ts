// `tooldesk mcp <sub-command>`: the dispatcher. Add a sub-command with its own file and one line
// in MCP_SUBCOMMANDS; its file is imported only when it runs.
import type { Command, CommandEntry } from '../command.ts';
import { commandGroup } from '../command-group.ts';

export const MCP_SUBCOMMANDS: CommandEntry[] = [
  { name: 'list', summary: 'List the servers (--status starts them and shows their state)', load: async () => (await import('./mcp-list.ts')).mcpListCommand },
  { name: 'add', summary: 'Add a server: NAME -- COMMAND [ARGS…], or NAME --url URL', load: async () => (await import('./mcp-add.ts')).mcpAddCommand },
  { name: 'remove', summary: 'Remove a server (an installed bundle: its files and sensitive settings too)', load: async () => (await import('./mcp-add.ts')).mcpRemoveCommand },
  { name: 'enable', summary: 'Switch a server\'s tool group on (it starts when used)', load: async () => (await import('./mcp-enable.ts')).mcpEnableCommand },
  { name: 'disable', summary: 'Switch a server\'s tool group off (it stops)', load: async () => (await import('./mcp-enable.ts')).mcpDisableCommand },
  { name: 'import', summary: 'Import servers from Claude Desktop, Cursor, LM Studio, VS Code, Windsurf or Zed', load: async () => (await import('./mcp-import.ts')).mcpImportCommand },
  { name: 'install', summary: 'Install an MCP bundle (.mcpb): shown, checked, configured, switched on', load: async () => (await import('./mcp-install.ts')).mcpInstallCommand },
  { name: 'search', summary: 'Search an MCP registry (name, title, version, kind of package)', load: async () => (await import('./mcp-registry.ts')).mcpSearchCommand },
  { name: 'allow-write', summary: 'Let a server write to a folder (the answer to a write the sandbox refused)', load: async () => (await import('./mcp-allow-write.ts')).mcpAllowWriteCommand },
  { name: 'logs', summary: 'Show a server\'s log (--start runs it first)', load: async () => (await import('./mcp-logs.ts')).mcpLogsCommand },
  { name: 'serve', summary: 'Offer your tools to MCP hosts (stdio, or --http on 127.0.0.1)', load: async () => (await import('./mcp-serve.ts')).mcpServeCommand },
  { name: 'log', summary: 'Alias of `tooldesk audit` (kept for old scripts)', load: async () => (await import('./mcp-log.ts')).mcpLogCommand },
];

export const mcpCommand: Command = commandGroup({
  name: 'mcp',
  summary: 'MCP: add, import and inspect MCP servers (each one a tool group); serve your tools to MCP hosts',
  subcommands: MCP_SUBCOMMANDS,
  footer: ['Each MCP server is a tool group named after it; its tools are SERVER__tool.'],
});
