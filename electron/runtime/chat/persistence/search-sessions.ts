// Session search by title, message text and the text of attached files: the first matching line
// of the newest match is the snippet, cut around the match so it fits a sidebar row. An attached
// file is searched in its first ATTACHMENT_SEARCH_BYTES (a bound on what one search reads).
import type { SessionSearchHit } from '../../../../shared/api.ts';
import type { ChatMessage, SessionInfo } from '../../../../shared/chat.ts';

const SNIPPET_CHARS = 90;
export const ATTACHMENT_SEARCH_BYTES = 512 * 1024;

/** Contract: the start of a stored text attachment (at most `maxBytes`), or null; never throws. */
export type ReadAttachmentText = (stored: string, maxBytes: number) => string | null;

/** The text a message is searched by (what the user sees of it). */
function searchableText(message: ChatMessage): string {
  if (message.role === 'tool') return message.content;
  return message.content;
}

/** The line holding the match, cut to SNIPPET_CHARS around it, whitespace collapsed. */
export function snippetAround(text: string, index: number, needleLength: number): string {
  const lineStart = text.lastIndexOf('\n', index) + 1;
  const lineEnd = text.indexOf('\n', index + needleLength);
  const line = text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  const at = index - lineStart;
  let start = Math.max(0, at - Math.floor((SNIPPET_CHARS - needleLength) / 2));
  const end = Math.min(line.length, start + SNIPPET_CHARS);
  start = Math.max(0, Math.min(start, end - SNIPPET_CHARS));
  const cut = line.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${cut}${end < line.length ? '…' : ''}`;
}

/** The first match in a message's attached files: "name: …snippet…". */
function attachmentHit(message: ChatMessage, needle: string, readText: ReadAttachmentText | undefined): string | null {
  if (message.role !== 'user') return null;
  for (const file of message.attachments ?? []) {
    if (file.name.toLowerCase().includes(needle)) return file.name;
    if (file.kind === 'image' || !file.stored || !readText) continue;
    const text = readText(file.stored, ATTACHMENT_SEARCH_BYTES);
    const index = text?.toLowerCase().indexOf(needle) ?? -1;
    if (index >= 0) return `${file.name}: ${snippetAround(text!, index, needle.length)}`;
  }
  return null;
}

/** A hit for one session, or null. Messages (then their attached files) are searched newest first; the title before them. */
export function searchSession(info: SessionInfo, messages: ChatMessage[], query: string, readText?: ReadAttachmentText): SessionSearchHit | null {
  const needle = query.trim().toLowerCase();
  if (!needle) return { session: info };
  const title = info.title.toLowerCase().indexOf(needle);
  if (title >= 0) return { session: info, snippet: info.title };
  for (let i = messages.length - 1; i >= 0; i--) {
    const text = searchableText(messages[i]!);
    const index = text.toLowerCase().indexOf(needle);
    if (index >= 0) return { session: info, snippet: snippetAround(text, index, needle.length), messageId: messages[i]!.id };
    const inFile = attachmentHit(messages[i]!, needle, readText);
    if (inFile) return { session: info, snippet: inFile, messageId: messages[i]!.id };
  }
  return null;
}
