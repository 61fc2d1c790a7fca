// One session on disk: `<sessions>/<id>.jsonl` (append-only records) plus `<id>.meta.json`, a small
// summary rewritten on change so listing many sessions does not replay every file. Reading
// replays the records; a torn last line (a crash mid-write) is cut off with a warning, any other
// unreadable line is skipped with a warning. Nothing else is lost.
import { appendFileSync, closeSync, existsSync, fstatSync, ftruncateSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { fileError } from '../../base/file-error.ts';
import { join } from 'node:path';
import type { ChatMessage, ChatSettings, SessionFlags, SessionInfo } from '../../../../shared/chat.ts';
import type { ToolExecuteStatus } from '../../../../shared/tools.ts';
import type { Variable } from '../../../../shared/variables.ts';
import { MessageTree } from '../message-tree.ts';
import { outlineSession } from './session-outline.ts';
import { DEFAULT_LIMITS } from '../../../../shared/settings.ts';
import { applyFlags, parseRecord, SESSION_FORMAT_VERSION, type SessionRecord } from './session-records.ts';
import { isValidSessionId } from './session-id.ts';
import { toolResultFromFile } from './session-result.ts';
import { DEFAULT_TITLE } from '../titles/title-from-message.ts';

export interface SessionState {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** The shown path (root → head). */
  messages: ChatMessage[];
  /** Every message, branches included. */
  tree: MessageTree;
  /** The chat's own model and settings. */
  chat: ChatSettings;
  /** In restore order (rules first, then least recently used first). */
  variables: Variable[];
  approvalMemory: unknown;
  warnings: string[];
  /** The chat's choice of tools (absent: the global switches). */
  toolSelection?: unknown;
  /** The model names FindTools found in this chat (offered from then on, also after a reopen). */
  foundTools?: string[];
  /** The last turn, when the file has its start but not its end: it was cut off. */
  openTurn?: { turnId: string; at: number };
  /** Approvals asked and never answered, by request id: the call id each one asked about. */
  unansweredAsks: Map<string, string>;
  /** Of those, result approvals: by call id, the result the card showed (the call already ran). */
  unansweredResults: Map<string, { status: ToolExecuteStatus; text: string }>;
  flags: SessionFlags;
}

/** The summary of a replayed session. */
function infoOf(id: string, state: SessionState): SessionInfo {
  return { id, title: state.title, createdAt: state.createdAt, updatedAt: state.updatedAt, messageCount: state.tree.size, shownCount: state.tree.path().length, ...state.flags };
}

export const sessionPaths = (dir: string, id: string) => ({
  log: join(dir, `${id}.jsonl`),
  meta: join(dir, `${id}.meta.json`),
});

/** Replays a session file. Never throws for bad content; throws only for I/O errors. */
/** A session log larger than this is listed from its head and not opened (2 GiB cost 4.4 GB). */
export const MAX_SESSION_LOG_BYTES = 256 * 1024 * 1024;
const HEAD_BYTES = 64 * 1024;

const sizeText = (bytes: number) => (bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`);

function tooLarge(file: string, size: number): string {
  return `${file} is ${sizeText(size)}, more than the ${sizeText(MAX_SESSION_LOG_BYTES)} a session may be to open, so it was not opened; \`tooldesk sessions show\` reads it a message at a time, or move it out of the sessions folder.`;
}

export function readSessionFile(file: string, id: string): SessionState {
  const size = statSync(file).size;
  if (size > MAX_SESSION_LOG_BYTES) throw new Error(tooLarge(file, size));
  const text = readFileSync(file, 'utf8');
  const state: SessionState = { id, title: DEFAULT_TITLE, createdAt: 0, updatedAt: 0, messages: [], tree: new MessageTree(), chat: {}, variables: [], approvalMemory: undefined, warnings: [], unansweredAsks: new Map(), unansweredResults: new Map(), flags: {} };
  const variables = new Map<string, Variable>();
  const lines = text.split('\n');
  const torn = !text.endsWith('\n') && lines.at(-1) !== '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const record = parseRecord(line);
    if (typeof record === 'string') {
      const last = i === lines.length - 1;
      state.warnings.push(
        last && torn
          ? `${file}: the last line was cut off (the app probably stopped while writing it); it was dropped.`
          : `${file}:${i + 1}: skipped an unreadable line (${record}).`,
      );
      continue;
    }
    apply(state, variables, record);
  }
  state.variables = [...variables.values()];
  state.messages = state.tree.path();
  if (state.createdAt === 0) state.createdAt = statSync(file).mtimeMs;
  if (state.updatedAt === 0) state.updatedAt = state.createdAt;
  return state;
}

function apply(state: SessionState, variables: Map<string, Variable>, record: SessionRecord): void {
  if ('at' in record && record.at > state.updatedAt && record.t !== 'flags') state.updatedAt = record.at;
  switch (record.t) {
    case 'flags':
      applyFlags(state.flags, record);
      break;
    case 'session':
      state.createdAt = record.createdAt;
      state.title = record.title || DEFAULT_TITLE;
      break;
    case 'message':
      // Results of older builds (every field optional) are read into the union on `status`.
      if (record.message.role === 'tool') record.message.result = toolResultFromFile(record.message.result, record.message.content);
      state.tree.add(record.message);
      break;
    case 'head':
      state.tree.setHead(record.id);
      break;
    case 'delete':
      state.tree.delete(record.id);
      break;
    case 'chat':
      state.chat = record.chat ?? {};
      break;
    case 'title':
      state.title = record.title;
      break;
    case 'var':
      variables.delete(record.variable.name);
      variables.set(record.variable.name, record.variable);
      break;
    case 'var-remove':
      variables.delete(record.name);
      break;
    case 'vars':
      variables.clear();
      for (const v of record.data?.variables ?? []) variables.set(v.name, v);
      break;
    case 'approval-memory':
      state.approvalMemory = record.data;
      break;
    case 'approval':
      // null: dropped by an abort or a close, so the question was never answered.
      if (record.decision !== null) {
        state.unansweredAsks.delete(record.request.id);
        if (record.request.type === 'result') state.unansweredResults.delete(record.request.callId);
      }
      break;
    case 'approval-asked':
      state.unansweredAsks.set(record.request.id, record.request.callId);
      if (record.request.type === 'result' && record.request.result) state.unansweredResults.set(record.request.callId, record.request.result);
      break;
    case 'turn':
      if (record.state === 'started') {
        state.openTurn = { turnId: record.turnId, at: record.at };
        state.unansweredAsks.clear();
        state.unansweredResults.clear();
      } else if (state.openTurn?.turnId === record.turnId) state.openTurn = undefined;
      break;
    case 'tool-selection':
      state.toolSelection = record.selection;
      break;
    case 'found-tools':
      state.foundTools = Array.isArray(record.names) ? record.names.filter((n): n is string => typeof n === 'string') : [];
      break;
  }
}

/** A session too large to open, listed from its first records only, its size in the title. */
function infoFromHead(file: string, id: string, size: number): SessionInfo {
  const fd = openSync(file, 'r');
  let head = '';
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    head = buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
  const mtime = statSync(file).mtimeMs;
  let title = DEFAULT_TITLE;
  let createdAt = mtime;
  for (const line of head.split('\n').slice(0, -1)) {
    const record = parseRecord(line);
    if (typeof record === 'string') continue;
    if (record.t === 'session') {
      createdAt = record.createdAt;
      title = record.title || DEFAULT_TITLE;
    } else if (record.t === 'title') title = record.title;
  }
  return { id, title: `${title} (${sizeText(size)}: too large to open)`, createdAt, updatedAt: mtime, messageCount: 1 };
}

/** JSON of a record; tool data that JSON cannot hold (BigInt, cycles) is written as text. */
export function toJsonLine(record: SessionRecord): string {
  try {
    return JSON.stringify(record);
  } catch {
    const ancestors: object[] = [];
    return JSON.stringify(record, function (this: unknown, _key, value: unknown) {
      if (typeof value === 'bigint') return value.toString();
      if (typeof value !== 'object' || value === null) return value;
      while (ancestors.length > 0 && ancestors.at(-1) !== this) ancestors.pop();
      if (ancestors.includes(value)) return '[Circular]';
      ancestors.push(value);
      return value;
    });
  }
}

/** Cuts a torn last line so the next append starts on a fresh line. Reads one byte unless torn. */
function repairTail(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    const { size } = fstatSync(fd);
    const last = Buffer.alloc(1);
    if (size === 0 || (readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a)) return;
    ftruncateSync(fd, readFileSync(fd).lastIndexOf(0x0a) + 1);
  } finally {
    closeSync(fd);
  }
}

export interface SessionMeta extends SessionInfo {
  version: number;
}

export class SessionFile {
  readonly log: string;
  readonly metaFile: string;
  #info: SessionInfo;
  #stopped = false;
  #countShown: (() => number) | undefined;

  private constructor(readonly dir: string, readonly id: string, info: SessionInfo) {
    if (!isValidSessionId(id)) throw new Error(`"${id}" is not a valid session id`);
    const paths = sessionPaths(dir, id);
    this.log = paths.log;
    this.metaFile = paths.meta;
    this.#info = info;
  }

  static create(dir: string, id: string, title: string, now = Date.now()): SessionFile {
    const file = new SessionFile(dir, id, { id, title, createdAt: now, updatedAt: now, messageCount: 0 });
    if (existsSync(file.log)) throw new Error(`Session ${id} already exists`);
    file.append({ t: 'session', v: SESSION_FORMAT_VERSION, id, createdAt: now, title });
    return file;
  }

  /** Opens and replays an existing session. */
  static open(dir: string, id: string): { file: SessionFile; state: SessionState } {
    const paths = sessionPaths(dir, id);
    if (!isValidSessionId(id) || !existsSync(paths.log)) throw new Error(`No session "${id}" in ${dir}`);
    const state = readSessionFile(paths.log, id);
    repairTail(paths.log);
    const file = new SessionFile(dir, id, infoOf(id, state));
    file.writeMeta();
    return { file, state };
  }

  get info(): SessionInfo {
    return { ...this.#info };
  }

  /** Contract: the number of messages on the shown branch now; read after each append. */
  countShown(count: () => number): void {
    this.#countShown = count;
  }

  /** After this, appends are dropped (the session was deleted while a turn was finishing). */
  stopWriting(): void {
    this.#stopped = true;
  }

  /**
   * Appends one record. A failed write (a full disk) throws a FileError naming the file and what
   * to do, after cutting back what it half wrote, so every record before it stays readable.
   */
  append(record: SessionRecord): void {
    if (this.#stopped) return;
    const size = statSync(this.log, { throwIfNoEntry: false })?.size ?? 0;
    try {
      appendFileSync(this.log, `${toJsonLine(record)}\n`);
    } catch (error) {
      try {
        if (existsSync(this.log)) truncateSync(this.log, size);
      } catch {
        // A torn last line is skipped on the next open (and cut by repairTail) anyway.
      }
      throw fileError('save the session to', this.log, error, 'What the session held before is kept; this turn stopped here.');
    }
    const at = 'at' in record ? record.at : record.createdAt;
    const info = this.#info;
    if (record.t === 'flags') applyFlags(info, record);
    else info.updatedAt = Math.max(info.updatedAt, at);
    if (this.#countShown) info.shownCount = this.#countShown();
    if (record.t === 'message') info.messageCount++;
    if (record.t === 'delete') info.messageCount = Math.max(0, info.messageCount - 1);
    if (record.t === 'title') info.title = record.title;
    this.writeMeta();
  }

  /** The meta file is a cache of the log's summary (rebuilt when stale): failing to write it loses nothing. */
  writeMeta(): void {
    writeMetaFile(this.metaFile, this.#info);
  }
}

function writeMetaFile(file: string, info: SessionInfo): void {
  const meta: SessionMeta = { version: SESSION_FORMAT_VERSION, ...info };
  const tmp = `${file}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(meta));
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** The summary of a session for lists: from its meta file, rebuilt from the log when stale or missing. */
export function readSessionInfo(dir: string, id: string): SessionInfo | null {
  const paths = sessionPaths(dir, id);
  if (!existsSync(paths.log)) return null;
  try {
    const meta = JSON.parse(readFileSync(paths.meta, 'utf8')) as SessionMeta;
    if (meta.id === id && typeof meta.title === 'string' && statSync(paths.meta).mtimeMs >= statSync(paths.log).mtimeMs - 1) {
      const { title, createdAt, updatedAt, messageCount, shownCount, pinned, archived } = meta;
      return { id, title, createdAt, updatedAt, messageCount, ...(shownCount !== undefined ? { shownCount } : {}), ...(pinned ? { pinned } : {}), ...(archived ? { archived } : {}) };
    }
  } catch {
    // missing or unreadable: rebuild below
  }
  const size = statSync(paths.log).size;
  if (size > MAX_SESSION_LOG_BYTES) return infoFromHead(paths.log, id, size);
  // Rebuilt without repairing the file: a torn last line stays until the session is opened, so
  // opening it still reports the warning (listing or `exists` must not swallow it).
  // Streamed: a summary costs what the longest record does, not the file.
  try {
    const { info } = outlineSession(paths.log, id, { maxEntries: DEFAULT_LIMITS.variableMaxEntries, maxBytes: DEFAULT_LIMITS.variableMaxBytes });
    writeMetaFile(paths.meta, info);
    return info;
  } catch {
    return null;
  }
}
