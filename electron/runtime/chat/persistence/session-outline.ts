// A session read for showing, in memory bounded by its longest record rather than its size: a
// first pass keeps only the outline (title, times, each message's id, parent and place in the
// file, variable summaries), then the shown path is read back message by message from the file.
// The same fold (session-reducer.ts, its summary layer) as readSessionFile (session-file.ts), which
// loads a session whole for a chat to continue.
import { closeSync, openSync, statSync } from 'node:fs';
import type { ChatMessage, SessionInfo } from '../../../../shared/chat.ts';
import { VARIABLE_TYPES, type Variable, type VariableInfo } from '../../../../shared/variables.ts';
import { jsonlLines, readLineAt } from './jsonl-lines.ts';
import { parseRecord } from './session-records.ts';
import { applySummaryRecord, emptySummaryState, settleTimes } from './session-reducer.ts';

/** A record longer than this is skipped with a note (a 500 MB line must not cost gigabytes). */
export const MAX_SESSION_RECORD_BYTES = 32 * 1024 * 1024;

interface MessagePlace {
  id: string;
  parentId?: string | null;
  offset: number;
  bytes: number;
}

interface VariableSummary {
  info: VariableInfo;
  bytes: number;
}

export interface SessionOutline {
  file: string;
  info: SessionInfo;
  /** Lines skipped (unreadable, cut off, too long), each naming the file and line. */
  warnings: string[];
  /** As `VariableSystem.list()` gives them after a restore under the same bounds. */
  variables: VariableInfo[];
  shown: MessagePlace[];
}

const sizeText = (bytes: number) => (bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : bytes >= 1024 ** 2 ? `${Math.round(bytes / 1024 ** 2)} MB` : `${bytes} bytes`);

/** A variable's summary, or undefined for one a restore skips (VariableSystem.restore's checks). */
function summaryOf(variable: Variable): VariableSummary | undefined {
  if (typeof variable?.name !== 'string' || typeof variable.value !== 'string' || !VARIABLE_TYPES.includes(variable.type)) return undefined;
  const { value, ...info } = variable;
  return { info, bytes: Buffer.byteLength(value, 'utf8') };
}

/** Rules by name, then the others newest first, the oldest dropped past the bounds (as a restore does). */
function listVariables(variables: Map<string, VariableSummary>, bounds: { maxEntries: number; maxBytes: number }): VariableInfo[] {
  const all = [...variables.values()];
  const rules = all.filter((v) => v.info.type === 'RULE').sort((a, b) => a.info.name.localeCompare(b.info.name));
  const others = all.filter((v) => v.info.type !== 'RULE');
  let bytes = others.reduce((sum, v) => sum + v.bytes, 0);
  let first = 0;
  while (first < others.length && (others.length - first > bounds.maxEntries || bytes > bounds.maxBytes)) bytes -= others[first++]!.bytes;
  return [...rules, ...others.slice(first).reverse()].map((v) => v.info);
}

/** The outline of a session file, read once through a fixed buffer. Throws only for I/O errors. */
export function outlineSession(file: string, id: string, bounds: { maxEntries: number; maxBytes: number }): SessionOutline {
  const state = emptySummaryState<MessagePlace, VariableSummary>();
  const warnings: string[] = [];
  // A message is not kept, only where it stands in the file, to be read back when shown.
  let offset = 0;
  let bytes = 0;
  const keep = { message: (m: ChatMessage): MessagePlace => ({ id: m.id, parentId: m.parentId, offset, bytes }), variable: summaryOf };
  for (const line of jsonlLines(file, MAX_SESSION_RECORD_BYTES)) {
    if (line.kind === 'oversize') {
      warnings.push(`${file}:${line.number}: skipped a line of ${sizeText(line.bytes)}, more than the ${sizeText(MAX_SESSION_RECORD_BYTES)} a record may be; it was not read.`);
      continue;
    }
    if (line.text.trim() === '') continue;
    const record = parseRecord(line.text);
    if (typeof record === 'string') {
      warnings.push(line.torn ? `${file}: the last line was cut off (the app probably stopped while writing it); it was dropped.` : `${file}:${line.number}: skipped an unreadable line (${record}).`);
      continue;
    }
    ({ offset, bytes } = line);
    applySummaryRecord(state, record, keep);
  }
  settleTimes(state, () => statSync(file).mtimeMs);
  const shown = state.tree.path();
  const info: SessionInfo = { id, title: state.title, createdAt: state.createdAt, updatedAt: state.updatedAt, messageCount: state.tree.size, ...state.flags, shownCount: shown.length };
  return { file, info, warnings, variables: listVariables(state.variables, bounds), shown };
}

/**
 * The shown messages (root → head), read back one at a time. A line that no longer reads as the
 * message the outline saw (the file was rewritten meanwhile) is reported through `onWarning`.
 */
export function* shownMessages(outline: SessionOutline, onWarning: (message: string) => void): Generator<ChatMessage> {
  const fd = openSync(outline.file, 'r');
  try {
    for (const place of outline.shown) {
      const record = parseRecord(readLineAt(fd, place.offset, place.bytes));
      if (typeof record !== 'string' && record.t === 'message' && record.message.id === place.id) yield record.message;
      else onWarning(`${outline.file}: message ${place.id} changed while it was read (the session was written meanwhile); it was left out.`);
    }
  } finally {
    closeSync(fd);
  }
}
