// `tooldesk tools <sub-command>`: the dispatcher. Add a sub-command with its own file and one
// line in TOOLS_SUBCOMMANDS; its file is imported only when it runs.
import type { Command, CommandEntry } from '../command.ts';
import { commandGroup } from '../command-group.ts';
import { NEW_TOOL_FORMATS } from '../../../shared/new-tool-formats.ts';

export const TOOLS_SUBCOMMANDS: CommandEntry[] = [
  { name: 'list', summary: 'List every tool: group, format, source file, policies and schema', load: async () => (await import('./tools-list.ts')).toolsListCommand },
  { name: 'check', summary: 'Report problems in tool files (file:line:col and a hint); exit 1 on errors', load: async () => (await import('./tools-check.ts')).toolsCheckCommand },
  { name: 'run', summary: 'Run one tool with JSON arguments (approvals asked here; --yes approves)', load: async () => (await import('./tools-run.ts')).toolsRunCommand },
  { name: 'enable', summary: 'Enable a tool group or a tool (persisted in the settings)', load: async () => (await import('./tools-enable.ts')).toolsEnableCommand },
  { name: 'disable', summary: 'Disable a tool group or a tool (persisted in the settings)', load: async () => (await import('./tools-enable.ts')).toolsDisableCommand },
  { name: 'new', summary: `Create a tool from a template (${NEW_TOOL_FORMATS.join(', ')})`, load: async () => (await import('./tools-new.ts')).toolsNewCommand },
  { name: 'policy', summary: 'Show or set a tool\'s approval policies (run: auto|ask-once|ask-always, --result)', load: async () => (await import('./tools-policy.ts')).toolsPolicyCommand },
  { name: 'trust', summary: 'Approve a project tool folder so its tools load (--revoke to withdraw)', load: async () => (await import('./tools-trust.ts')).toolsTrustCommand },
  { name: 'untrust', summary: 'Withdraw the approval of a project tool folder', load: async () => (await import('./tools-trust.ts')).toolsUntrustCommand },
  { name: 'config', summary: 'Show or set an Open WebUI toolkit\'s Valves (--user: its UserValves)', load: async () => (await import('./tools-config.ts')).toolsConfigCommand },
];

export const toolsCommand: Command = commandGroup({ name: 'tools', summary: 'List, check and run your tools', subcommands: TOOLS_SUBCOMMANDS });
