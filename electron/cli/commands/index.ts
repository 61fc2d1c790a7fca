// The command table. Add a command by adding its file and one line here.
import type { Command } from '../command.ts';
import { chatCommand } from './chat.ts';
import { configCommand } from './config.ts';
import { mcpCommand } from './mcp.ts';
import { secretsCommand } from './secrets.ts';
import { sessionsCommand } from './sessions.ts';
import { serveCommand } from './serve.ts';
import { startCommand } from './start.ts';
import { toolsCommand } from './tools.ts';
import { auditCommand } from './audit.ts';
import { rulesCommand } from './rules.ts';
import { toolsetCommand } from './toolset.ts';

export const COMMANDS: Command[] = [startCommand, serveCommand, chatCommand, sessionsCommand, configCommand, secretsCommand, toolsCommand, mcpCommand, rulesCommand, toolsetCommand, auditCommand];
