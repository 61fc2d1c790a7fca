// One session on disk: `<sessions>/<id>.jsonl` (append-only records) plus `<id>.meta.json`, a small
// summary rewritten on change so listing many sessions does not replay every file. Reading
// replays the records; a torn last line (a crash mid-write) is cut off with a warning, any other
// unreadable line is skipped with a warning. Nothing else is lost.
import { appendFileSync, closeSync, existsSync, fstatSync, ftruncateSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { fileError } from '../../base/file-error.ts';
import { join } from 'node:path';
import type { ChatMessage, SessionInfo } from '../../../../shared/chat.ts';
import type { Variable } from '../../../../shared/variables.ts';
import { outlineSession } from './session-outline.ts';
import { DEFAULT_LIMITS } from '../../../../shared/settings.ts';
import { applyFlags, parseRecord, SESSION_FORMAT_VERSION, type SessionRecord } from './session-records.ts';
import { applySessionRecord, emptyReplayState, settleTimes, type ReplayKeep, type SessionReplayState } from './session-reducer.ts';
import { isValidSessionId } from './session-id.ts';
import { toolResultFromFile } from './session-result.ts';
import { DEFAULT_TITLE } from '../titles/title-from-message.ts';

/** A session replayed whole, for a chat to continue. */
export interface SessionState extends Omit<SessionReplayState<ChatMessage, Variable>, 'variables'> {
  id: string;
  /** The shown path (root → head). */
  messages: ChatMessage[];
  /** In restore order (rules first, then least recently used first). */
  variables: Variable[];
  warnings: string[];
}

/** A whole replay keeps every message and variable as written. */
const KEEP_WHOLE: ReplayKeep<ChatMessage, Variable> = {
  message: (message) => {
    // Results of older builds (every field optional) are read into the union on `status`.
    if (message.role === 'tool') message.result = toolResultFromFile(message.result, message.content);
    return message;
  },
  variable: (variable) => variable,
};

/** The summary of a replayed session. */
function infoOf(id: string, state: SessionState): SessionInfo {
  return { id, title: state.title, createdAt: state.createdAt, updatedAt: state.updatedAt, messageCount: state.tree.size, shownCount: state.tree.path().length, ...state.flags };
}

export const sessionPaths = (dir: string, id: string) => ({
  log: join(dir, `${id}.jsonl`),
  meta: join(dir, `${id}.meta.json`),
});

/** A session log larger than this is listed from its head and not opened (2 GiB cost 4.4 GB). */
export const MAX_SESSION_LOG_BYTES = 256 * 1024 * 1024;
const HEAD_BYTES = 64 * 1024;

const sizeText = (bytes: number) => (bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`);

function tooLarge(file: string, size: number): string {
  return `${file} is ${sizeText(size)}, more than the ${sizeText(MAX_SESSION_LOG_BYTES)} a session may be to open, so it was not opened; \`tooldesk sessions show\` reads it a message at a time, or move it out of the sessions folder.`;
}

/** Replays a session file. Never throws for bad content; throws only for I/O errors. */
export function readSessionFile(file: string, id: string): SessionState {
  const size = statSync(file).size;
  if (size > MAX_SESSION_LOG_BYTES) throw new Error(tooLarge(file, size));
  const text = readFileSync(file, 'utf8');
  const state = emptyReplayState<ChatMessage, Variable>();
  const warnings: string[] = [];
  const lines = text.split('\n');
  const torn = !text.endsWith('\n') && lines.at(-1) !== '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const record = parseRecord(line);
    if (typeof record === 'string') {
      const last = i === lines.length - 1;
      warnings.push(
        last && torn
          ? `${file}: the last line was cut off (the app probably stopped while writing it); it was dropped.`
          : `${file}:${i + 1}: skipped an unreadable line (${record}).`,
      );
      continue;
    }
    applySessionRecord(state, record, KEEP_WHOLE);
  }
  settleTimes(state, () => statSync(file).mtimeMs);
  return { ...state, id, variables: [...state.variables.values()], messages: state.tree.path(), warnings };
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
