// The audit log, one per home: one JSON line per call decision, and `mcp serve`'s connection
// events as entries of kind `mcp-serve` (connect, call, approval, question, result, disconnect;
// long arguments and texts cut with their length noted), in a file per day under
// TOOLDESK_HOME/audit (`2026-11-26.jsonl`). Bounded: a day's file stops growing at `maxFileBytes` (one line says
// so) and only the newest `keepDays` files are kept. Written synchronously so the order on disk
// is the order of the calls; a failing write never fails a call (reported once).
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditEntry, McpServeAuditEntry } from '../../../shared/permissions.ts';
import { countCodePoints, sliceCodePoints } from '../base/code-points.ts';

export const AUDIT_FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;

export interface AuditLogOptions {
  /** Days of files kept (default 30). */
  keepDays?: number;
  /** Largest day file, bytes (default 16 MiB). */
  maxFileBytes?: number;
  onError?: (message: string) => void;
  now?: () => Date;
}

/** A decision (no kind) or an entry of another kind. */
export type AuditRecord = Omit<AuditEntry, 'at'> | DistributiveOmit<McpServeAuditEntry, 'at'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Longest argument or text kept in an `mcp-serve` entry, characters. */
const MAX_FIELD_CHARS = 4000;

export interface AuditWriter {
  /** Contract: never throws. */
  write(entry: AuditRecord): void;
}

export function auditDir(home: string): string {
  return join(home, 'audit');
}

export function fileAuditWriter(dir: string, options: AuditLogOptions = {}): AuditWriter {
  const keepDays = options.keepDays ?? 30;
  const maxFileBytes = options.maxFileBytes ?? 16 * 1024 * 1024;
  const now = options.now ?? (() => new Date());
  let failed = false;
  let day = '';
  let size = 0;
  let full = false;
  return {
    write(entry) {
      try {
        const at = now();
        const today = at.toISOString().slice(0, 10);
        const file = join(dir, `${today}.jsonl`);
        if (today !== day) {
          mkdirSync(dir, { recursive: true, mode: 0o700 });
          day = today;
          size = sizeOf(file);
          full = size >= maxFileBytes;
          prune(dir, keepDays);
        }
        if (full) return;
        let line = `${JSON.stringify({ at: at.toISOString(), ...bound(entry) })}\n`;
        if (size + Buffer.byteLength(line) > maxFileBytes) {
          line = `${JSON.stringify({ at: at.toISOString(), note: `this day's audit file reached ${maxFileBytes} bytes; later calls of the day are not logged` })}\n`;
          full = true;
        }
        appendFileSync(file, line, { mode: 0o600 });
        size += Buffer.byteLength(line);
      } catch (error) {
        if (!failed) options.onError?.(`the audit log in ${dir} cannot be written: ${(error as Error).message}`);
        failed = true;
      }
    },
  };
}

/** Long arguments and texts of `mcp serve` entries are cut, their full length noted. */
function bound(entry: AuditRecord): AuditRecord {
  if (!('kind' in entry)) return entry;
  if (entry.event === 'call') {
    const text = JSON.stringify(entry.args) ?? 'null';
    return countCodePoints(text) <= MAX_FIELD_CHARS ? entry : { ...entry, args: cut(text) };
  }
  if (entry.event === 'result') return { ...entry, text: cut(entry.text) };
  return entry;
}

function cut(text: string): string {
  const total = countCodePoints(text);
  return total <= MAX_FIELD_CHARS ? text : `${sliceCodePoints(text, 0, MAX_FIELD_CHARS)}… [${total - MAX_FIELD_CHARS} more characters]`;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function prune(dir: string, keepDays: number): void {
  const files = readdirSync(dir).filter((f) => AUDIT_FILE.test(f)).sort();
  for (const old of files.slice(0, Math.max(0, files.length - keepDays))) rmSync(join(dir, old), { force: true });
}

export interface AuditQuery {
  /** ISO date or time; entries at or after it. */
  since?: string;
  /** Tool name glob-free substring match on the tool or its server. */
  tool?: string;
  decision?: AuditEntry['decision'];
}

/** The decisions of every kept day, oldest first, filtered. Unreadable lines and entries of other kinds are skipped. */
export function readAudit(dir: string, query: AuditQuery = {}): AuditEntry[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => AUDIT_FILE.test(f)).sort();
  } catch {
    return [];
  }
  const sinceDay = query.since?.slice(0, 10);
  const out: AuditEntry[] = [];
  for (const file of files) {
    if (sinceDay && file.slice(0, 10) < sinceDay) continue;
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let entry: AuditEntry;
      try {
        entry = JSON.parse(line) as AuditEntry;
      } catch {
        continue;
      }
      if (typeof entry.tool !== 'string' || 'kind' in entry) continue;
      if (query.since && entry.at < query.since) continue;
      if (query.tool && entry.tool !== query.tool && entry.server !== query.tool && !entry.tool.includes(query.tool)) continue;
      if (query.decision && entry.decision !== query.decision) continue;
      out.push(entry);
    }
  }
  return out;
}
