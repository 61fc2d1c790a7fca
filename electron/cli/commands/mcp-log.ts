// `tooldesk mcp log`: the audit log of `mcp serve` (every call, approval and result), newest last.
// Kept as the alias of `tooldesk audit` for `mcp serve`'s own lines (it says so on stderr): the
// decisions of every caller (app, chat, tools run, mcp serve) are in `tooldesk audit`.
import { existsSync, readFileSync } from 'node:fs';
import { appPaths, toolDeskHome } from '../../runtime/paths.ts';
import { UsageError, type Command } from '../command.ts';
import { flag, option, parseArgs } from '../parse-args.ts';

export const mcpLogCommand: Command = {
  name: 'log',
  summary: 'Show the audit log of `mcp serve` (kept alias: `tooldesk audit` has every decision)',
  usage: [
    'Usage: tooldesk mcp log [--limit N] [--json]',
    '',
    'Prints the last N entries (default 100) of TOOLDESK_HOME/logs/mcp-audit.jsonl.',
    '  --limit N  how many entries (0 = all)',
    '  --json     the raw JSON lines',
    '',
    'Kept for old scripts: `tooldesk audit` shows the decisions of every call, wherever it ran.',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['limit'], booleans: ['json'] });
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const limitText = option(args, 'limit') ?? '100';
    if (!/^\d+$/.test(limitText)) throw new UsageError(`--limit needs a whole number (got "${limitText}")`);
    const limit = Number(limitText);
    io.stderr.write('tooldesk mcp log: kept as an alias for `mcp serve`\'s own log; `tooldesk audit` shows every decision (app, chat, tools run, mcp serve).\n');
    const file = appPaths(toolDeskHome(io.env)).mcpAuditLog;
    if (!existsSync(file)) {
      io.stderr.write(`No MCP audit log yet (${file}): nothing was served with \`tooldesk mcp serve\`.\n`);
      return 0;
    }
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
    const shown = limit === 0 ? lines : lines.slice(-limit);
    for (const line of shown) io.stdout.write(`${flag(args, 'json') ? line : describe(line)}\n`);
    return 0;
  },
};

function describe(line: string): string {
  let e: Record<string, unknown>;
  try {
    e = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return `(unreadable line) ${line.slice(0, 200)}`;
  }
  const head = `${String(e.at)} [${String(e.connection)}]`;
  switch (e.event) {
    case 'connect':
      return `${head} connected (${String(e.transport)})`;
    case 'disconnect':
      return `${head} disconnected`;
    case 'call':
      return `${head} call ${String(e.tool)} ${String(e.callId)} ${typeof e.args === 'string' ? e.args : JSON.stringify(e.args)}`;
    case 'approval':
      return `${head} ${String(e.type)} approval ${String(e.tool)} ${String(e.callId)}: ${String(e.decision)}${e.asked ? '' : ' (not asked: the client cannot ask)'}${e.reason ? ` — ${String(e.reason)}` : ''}`;
    case 'result': {
      const text = String(e.text ?? '').replace(/\s+/g, ' ');
      return `${head} result ${String(e.tool)} ${String(e.callId)}: ${String(e.status)}${e.durationMs !== undefined ? ` in ${String(e.durationMs)} ms` : ''} — ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
    }
    default:
      return `${head} ${line}`;
  }
}
