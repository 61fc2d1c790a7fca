// `tooldesk sessions list|show|search|export|delete|rename`: the chat sessions under TOOLDESK_HOME/sessions.
import type { ChatMessage, SessionInfo } from '../../../shared/chat.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type CliIO, type Command } from '../command.ts';
import { flag, option, parseArgs } from '../parse-args.ts';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { exportSession } from '../../runtime/chat/persistence/export-session.ts';
import { shownMessages, type SessionOutline } from '../../runtime/chat/persistence/session-outline.ts';

const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16);

function showMessage(m: ChatMessage): string {
  if (m.role === 'user') return `> ${m.content}`;
  if (m.role === 'tool') return `[${m.toolName} → ${m.result.status}] ${m.content.length > 400 ? `${m.content.slice(0, 400)}…` : m.content}`;
  const calls = (m.toolCalls ?? []).map((c) => `  calls ${c.name} ${c.rawArguments ?? JSON.stringify(c.args)}`);
  const error = m.error ? [`  error: ${m.error.message}`] : [];
  return [m.content, ...calls, ...error].filter(Boolean).join('\n');
}

/** Writes the session as it reads it, one message at a time: a 2 GiB file costs what its longest record does. */
function showSession(outline: SessionOutline, json: boolean, io: CliIO): void {
  const warn = (warning: string) => io.stderr.write(`tooldesk: warning: ${warning}\n`);
  outline.warnings.forEach(warn);
  const { info } = outline;
  if (json) {
    // The same document as one JSON.stringify of { session, messages, variables }, written in pieces.
    io.stdout.write(`{"session":${JSON.stringify(info)},"messages":[`);
    let first = true;
    for (const message of shownMessages(outline, warn)) {
      io.stdout.write(`${first ? '' : ','}${JSON.stringify(message)}`);
      first = false;
    }
    io.stdout.write(`],"variables":${JSON.stringify(outline.variables)}}\n`);
    return;
  }
  io.stdout.write(`# ${info.title}  (${info.id}, ${info.messageCount} messages, ${outline.variables.length} variables)\n\n`);
  for (const message of shownMessages(outline, warn)) io.stdout.write(`${showMessage(message)}\n\n`);
}

export const sessionsCommand: Command = {
  name: 'sessions',
  summary: 'List, show, search, export, rename or delete chat sessions',
  usage: [
    'Usage: tooldesk sessions list [--archived | --all] [--json]   pinned first; archived chats only with --archived or --all',
    '       tooldesk sessions show ID [--json]',
    '       tooldesk sessions search TEXT [--json]     titles and message text; prints the matching line',
    '       tooldesk sessions export ID [--format md|json] [--out FILE]   Markdown by default, to stdout',
    '       tooldesk sessions rename ID TITLE',
    '       tooldesk sessions delete ID',
    '',
    'Continue a session with: tooldesk chat --session ID "next message"',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { booleans: ['json', 'archived', 'all'], values: ['format', 'out'] });
    const [action, id, title, ...extra] = args.positionals;
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const format = option(args, 'format') ?? 'md';
    if (format !== 'md' && format !== 'json') throw new UsageError(`--format takes md or json (got "${format}")`);
    if ((args.flags.has('format') || args.flags.has('out')) && action !== 'export') throw new UsageError('--format and --out go with sessions export');
    const json = flag(args, 'json');
    if ((args.flags.has('archived') || args.flags.has('all')) && action !== 'list') throw new UsageError('--archived and --all go with sessions list');
    if (args.flags.has('archived') && args.flags.has('all')) throw new UsageError('use --archived (archived chats only) or --all (every chat), not both');
    // Reading and editing the files needs no tools.
    const runtime = await openCliRuntime(io, { tools: false });
    const manager = await runtime.sessions();
    try {
      switch (action) {
        case 'list': {
          const shown = flag(args, 'all') ? () => true : flag(args, 'archived') ? (s: SessionInfo) => Boolean(s.archived) : (s: SessionInfo) => !s.archived;
          const sessions = manager
            .list()
            .filter(shown)
            .sort((a, b) => Number(Boolean(b.pinned)) - Number(Boolean(a.pinned)));
          const marks = (s: SessionInfo) => `${s.pinned ? '[pinned] ' : ''}${s.archived ? '[archived] ' : ''}`;
          if (json) io.stdout.write(`${JSON.stringify(sessions)}\n`);
          else for (const s of sessions) io.stdout.write(`${s.id}  ${when(s.updatedAt)}  ${String(s.shownCount ?? s.messageCount).padStart(4)} msgs  ${marks(s)}${s.title}\n`);
          return 0;
        }
        case 'search': {
          const query = [id, title].filter(Boolean).join(' ');
          if (!query.trim()) throw new UsageError('sessions search needs TEXT');
          const hits = manager.search(query);
          if (json) io.stdout.write(`${JSON.stringify(hits)}\n`);
          else for (const hit of hits) io.stdout.write(`${hit.session.id}  ${when(hit.session.updatedAt)}  ${hit.session.title}\n    ${hit.snippet ?? ''}\n`);
          if (hits.length === 0) io.stderr.write(`no session mentions "${query}"\n`);
          return hits.length > 0 ? 0 : 1;
        }
        case 'export':
        case 'show':
        case 'delete':
        case 'rename': {
          if (!id) throw new UsageError(`sessions ${action} needs an ID`);
          if (!manager.exists(id)) {
            io.stderr.write(`tooldesk sessions: no session "${id}" (see \`tooldesk sessions list\`)\n`);
            return 1;
          }
          if (action === 'delete') {
            manager.delete(id);
            io.stderr.write(`deleted ${id}\n`);
            return 0;
          }
          if (action === 'rename') {
            if (!title) throw new UsageError('sessions rename needs ID and TITLE');
            io.stdout.write(`${manager.rename(id, title).title}\n`);
            return 0;
          }
          if (action === 'show') {
            showSession(manager.outline(id), json, io);
            return 0;
          }
          const session = manager.open(id);
          for (const warning of manager.warnings.get(id) ?? []) io.stderr.write(`tooldesk: warning: ${warning}\n`);
          const file = exportSession({ info: session.info, messages: session.messages(), allMessages: session.allMessages(), chat: session.chatSettings() }, format);
          const out = option(args, 'out');
          if (!out) {
            io.stdout.write(file.content);
            return 0;
          }
          const path = resolve(out);
          writeFileSync(path, file.content);
          io.stderr.write(`wrote ${path}\n`);
          return 0;
        }
        default:
          throw new UsageError(action ? `unknown action "${action}"` : 'missing action: list, show, search, export, rename or delete');
      }
    } finally {
      await runtime.close();
    }
  },
};
