// A session as a file to keep or share: Markdown (tool calls as collapsible <details> blocks, so
// the conversation reads first) or JSON (everything, branches included).
import type { ChatMessage, ChatSettings, SessionInfo } from '../../../../shared/chat.ts';
import type { ExportFormat } from '../../../../shared/api.ts';

export interface ExportInput {
  info: SessionInfo;
  /** The shown branch. */
  messages: ChatMessage[];
  /** Every message, other branches included (JSON only). */
  allMessages?: ChatMessage[];
  chat?: ChatSettings;
}

const fence = (text: string, lang = '') => {
  // A fence longer than any backtick run inside, so code in results cannot close it.
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
};

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

export function sessionToMarkdown(input: ExportInput): string {
  const { info, messages } = input;
  const out: string[] = [`# ${info.title}`, '', `_Exported from Tooldesk · ${new Date(info.createdAt).toISOString().slice(0, 10)} · ${messages.length} messages_`, ''];
  for (const m of messages) {
    if (m.role === 'user') {
      out.push('## User', '', m.content);
      for (const a of m.attachments ?? []) out.push('', `📎 ${a.name} (${a.kind}${a.variable ? `, text in $${a.variable}` : ''})`);
      out.push('');
    } else if (m.role === 'assistant') {
      out.push(`## Assistant${m.model ? ` (${m.model})` : ''}`, '');
      if (m.reasoning) out.push('<details><summary>Reasoning</summary>', '', m.reasoning, '', '</details>', '');
      if (m.content) out.push(m.content, '');
      for (const call of m.toolCalls ?? []) out.push(`<details><summary>Tool call: ${escapeHtml(call.name)}</summary>`, '', fence(call.rawArguments ?? json(call.args), 'json'), '', '</details>', '');
      if (m.error) out.push(`> Error: ${m.error.message}`, '');
    } else {
      const summary = `Tool result: ${escapeHtml(m.toolName)} → ${m.result.status}`;
      out.push(`<details><summary>${summary}</summary>`, '', 'Arguments:', '', fence(json(m.args ?? {}), 'json'), '', 'Result:', '', fence(m.content), '', '</details>', '');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

export function sessionToJson(input: ExportInput): string {
  return `${JSON.stringify({ format: 'tooldesk-session', version: 1, session: input.info, chat: input.chat ?? {}, messages: input.messages, allMessages: input.allMessages ?? input.messages }, null, 2)}\n`;
}

/** A file name from the title: letters, digits and dashes. */
export function exportFileName(info: SessionInfo, format: ExportFormat): string {
  const base = info.title.normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').toLowerCase().slice(0, 60) || info.id;
  return `${base}.${format}`;
}

export function exportSession(input: ExportInput, format: ExportFormat): { fileName: string; content: string } {
  return { fileName: exportFileName(input.info, format), content: format === 'json' ? sessionToJson(input) : sessionToMarkdown(input) };
}
