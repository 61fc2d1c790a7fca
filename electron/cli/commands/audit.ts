// `tooldesk audit`: every call's decision (who or what allowed or stopped it), from the per-day
// files under TOOLDESK_HOME/audit. `tooldesk mcp log` is its alias, kept for old scripts (mcp-log.ts).
import type { AuditEntry } from '../../../shared/permissions.ts';
import { auditDir, readAudit } from '../../runtime/audit/audit-log.ts';
import { toolDeskHome } from '../../runtime/paths.ts';
import { UsageError, type CliIO, type Command } from '../command.ts';
import { flag, option, parseArgs } from '../parse-args.ts';

export const AUDIT_USAGE = [
  'Usage: tooldesk audit [--since DATE|Nd|Nh] [--tool NAME] [--decision allowed|denied|rejected] [--limit N] [--json]',
  '',
  'Prints the decisions on tool calls (the app, `chat`, `tools run`, `mcp serve`), oldest first:',
  'when, the tool, allowed / denied / rejected, by whom or what (you once, for the session, always;',
  'rule N; the policy; the chat\'s level), the arguments\' hash and the result status.',
  '  --since D    from D on: an ISO date or time, or `2d` / `12h` ago (files are kept 30 days)',
  '  --tool T     only tool T, or the tools of MCP server T',
  '  --limit N    the last N entries (default 100; 0 = all)',
  '  --json       the JSON lines as stored',
].join('\n');

export async function runAudit(argv: string[], io: CliIO, prefix = 'tooldesk audit'): Promise<number> {
  const args = parseArgs(argv, { values: ['since', 'tool', 'decision', 'limit'], booleans: ['json'] });
  if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const since = sinceOf(option(args, 'since'));
  const decision = option(args, 'decision');
  if (decision !== undefined && !['allowed', 'denied', 'rejected'].includes(decision)) throw new UsageError(`--decision must be allowed, denied or rejected (got "${decision}")`);
  const limitText = option(args, 'limit') ?? '100';
  if (!/^\d+$/.test(limitText)) throw new UsageError(`--limit needs a whole number (got "${limitText}")`);
  const dir = auditDir(toolDeskHome(io.env));
  const tool = option(args, 'tool');
  const entries = readAudit(dir, { ...(since ? { since } : {}), ...(tool ? { tool } : {}), ...(decision ? { decision: decision as AuditEntry['decision'] } : {}) });
  const limit = Number(limitText);
  const shown = limit === 0 ? entries : entries.slice(-limit);
  if (shown.length === 0 && !flag(args, 'json')) io.stderr.write(`${prefix}: no decisions logged${since || tool || decision ? ' that match' : ''} (${dir}).\n`);
  for (const e of shown) io.stdout.write(`${flag(args, 'json') ? JSON.stringify(e) : describeEntry(e)}\n`);
  return 0;
}

export function describeEntry(e: AuditEntry): string {
  const by = e.detail && !e.detail.startsWith(e.by) ? `${e.by} (${e.detail})` : (e.detail ?? e.by);
  return `${e.at}  ${e.decision.padEnd(8)} ${e.tool}  by ${by}  level ${e.level}${e.status ? `  → ${e.status}` : ''}${e.durationMs !== undefined ? ` in ${e.durationMs} ms` : ''}  [${e.sessionId} ${e.callId}] args ${e.argsHash.slice(0, 12)}`;
}

function sinceOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const ago = /^(\d+)([dh])$/.exec(text);
  if (ago) return new Date(Date.now() - Number(ago[1]) * (ago[2] === 'd' ? 86_400_000 : 3_600_000)).toISOString();
  const date = new Date(text);
  if (Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(text)) throw new UsageError(`--since must be a date (2026-11-26), a time (2026-11-26T10:00) or 2d / 12h (got "${text}")`);
  return date.toISOString();
}

export const auditCommand: Command = {
  name: 'audit',
  summary: 'Show the decisions on tool calls: allowed, denied, rejected, and by whom',
  usage: AUDIT_USAGE,
  run: (argv, io) => runAudit(argv, io),
};
