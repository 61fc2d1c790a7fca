// `tooldesk mcp logs NAME`: the server's bounded log (stderr, its log messages, our notes), as the
// app or the last CLI command that ran it left it; --start runs it now to see what it says.
import { existsSync, readFileSync } from 'node:fs';
import { mcpLogDir, serverLogFile, switchedOffMessage } from '../../runtime/host/mcp-client.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { openInBrowser } from '../serve/open-browser.ts';
import { UsageError, type Command } from '../command.ts';
import { flag, parseArgs } from '../parse-args.ts';

export const mcpLogsCommand: Command = {
  name: 'logs',
  summary: 'Show a server\'s log (--start runs it first)',
  usage: ['Usage: tooldesk mcp logs NAME [--start]', '', '  --start  start the server now and show what it logged while starting'].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { booleans: ['start'] });
    const [name, ...extra] = args.positionals;
    if (!name) throw new UsageError('mcp logs needs the NAME of the server');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const runtime = await openCliRuntime(io, { tools: false });
    const home = runtime.home;
    try {
      if (!runtime.settings.get().mcpServers[name]) {
        io.stderr.write(`tooldesk mcp logs: no server named "${name}" (see tooldesk mcp list)\n`);
        return 1;
      }
      if (flag(args, 'start')) {
        const manager = await runtime.mcp({ only: [name], openUrl: openInBrowser });
        if (!manager.connection(name)?.wanted) {
          io.stderr.write(`tooldesk mcp logs: ${switchedOffMessage(name)}\n`);
          return 1;
        }
        await manager.startAll([name]);
      }
    } finally {
      await runtime.close();
    }
    const file = serverLogFile(mcpLogDir(home), name);
    if (!existsSync(file)) {
      io.stderr.write(`tooldesk mcp logs: "${name}" has no log yet (it has not run); run with --start to start it now\n`);
      return 1;
    }
    io.stdout.write(readFileSync(file, 'utf8'));
    return 0;
  },
};
