// The command table. Add a command with its own file and one line here; the file is imported only
// when its command runs (or `help NAME` shows its usage), so `tooldesk --version` and `help` load
// none of them. The summary here is what `help` lists (a test keeps it equal to the command's).
import type { CommandEntry } from '../command.ts';

export const COMMANDS: CommandEntry[] = [
  { name: 'start', summary: 'Start the desktop app (browser mode when Electron is missing)', load: async () => (await import('./start.ts')).startCommand },
  { name: 'serve', summary: 'Serve the app in your browser (127.0.0.1 only, token-guarded)', load: async () => (await import('./serve.ts')).serveCommand },
  { name: 'chat', summary: 'Send one message and stream the answer (tools and approvals included)', load: async () => (await import('./chat.ts')).chatCommand },
  { name: 'sessions', summary: 'List, show, search, export, rename or delete chat sessions', load: async () => (await import('./sessions.ts')).sessionsCommand },
  { name: 'config', summary: 'Read or change settings (dotted keys, JSON values)', load: async () => (await import('./config.ts')).configCommand },
  { name: 'secrets', summary: 'Store API keys and tool secrets in the OS keychain', load: async () => (await import('./secrets.ts')).secretsCommand },
  { name: 'tools', summary: 'List, check and run your tools', load: async () => (await import('./tools.ts')).toolsCommand },
  { name: 'skills', summary: 'Agent Skills: list, show, check, install, remove skills and their Python packages', load: async () => (await import('./skills.ts')).skillsCommand },
  { name: 'mcp', summary: 'MCP: add, import and inspect MCP servers (each one a tool group); serve your tools to MCP hosts', load: async () => (await import('./mcp.ts')).mcpCommand },
  { name: 'rules', summary: 'Rules on tool calls\' arguments: allow, ask or deny (deny wins)', load: async () => (await import('./rules.ts')).rulesCommand },
  { name: 'toolset', summary: 'Named tool sets for chats (/toolset NAME, chat --toolset) and `mcp serve --toolset`', load: async () => (await import('./toolset.ts')).toolsetCommand },
  { name: 'schedule', summary: 'Prompts that run on a schedule, unattended (pause for your answer, or refuse)', load: async () => (await import('./schedule/index.ts')).scheduleCommand },
  { name: 'inbox', summary: 'Questions paused scheduled runs wait on; approve or reject them to resume the runs', load: async () => (await import('./inbox.ts')).inboxCommand },
  { name: 'audit', summary: 'Show the decisions on tool calls: allowed, denied, rejected, and by whom', load: async () => (await import('./audit.ts')).auditCommand },
];
