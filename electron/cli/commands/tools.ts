// `tooldesk tools <sub-command>`: the dispatcher. Add a sub-command with its own file and one
// line in TOOLS_SUBCOMMANDS (`new` and `enable`/`disable` come from their owners).
import type { Command } from '../command.ts';
import { commandGroup } from '../command-group.ts';
import { toolsCheckCommand } from './tools-check.ts';
import { toolsConfigCommand } from './tools-config.ts';
import { toolsDisableCommand, toolsEnableCommand } from './tools-enable.ts';
import { toolsListCommand } from './tools-list.ts';
import { toolsNewCommand } from './tools-new.ts';
import { toolsPolicyCommand } from './tools-policy.ts';
import { toolsRunCommand } from './tools-run.ts';
import { toolsTrustCommand, toolsUntrustCommand } from './tools-trust.ts';

export const TOOLS_SUBCOMMANDS: Command[] = [toolsListCommand, toolsCheckCommand, toolsRunCommand, toolsEnableCommand, toolsDisableCommand, toolsNewCommand, toolsPolicyCommand, toolsTrustCommand, toolsUntrustCommand, toolsConfigCommand];

export const toolsCommand: Command = commandGroup({ name: 'tools', summary: 'List, check and run your tools', subcommands: TOOLS_SUBCOMMANDS });
