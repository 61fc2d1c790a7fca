// pi-coding-agent's truncation helpers, which tools call on their own output and then read
// field by field (`truncatedBy`, `totalBytes`, `outputLines` …) to write their "[Showing …]" notes.
// Two limits, whichever is hit first: lines and UTF-8 bytes. Only whole lines are kept, except
// that a tail whose last line alone is too big keeps that line's end.

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;
export const GREP_MAX_LINE_LENGTH = 500;

export interface TruncationOptions {
  maxLines?: number;
  maxBytes?: number;
}

export interface TruncationResult {
  content: string;
  truncated: boolean;
  truncatedBy: 'lines' | 'bytes' | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  lastLinePartial: boolean;
  firstLineExceedsLimit: boolean;
  maxLines: number;
  maxBytes: number;
}

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

function result(content: string, totals: { lines: number; bytes: number }, limits: Required<TruncationOptions>, extra: Partial<TruncationResult>): TruncationResult {
  const truncatedBy = extra.truncatedBy ?? null;
  return {
    content,
    truncated: truncatedBy !== null,
    truncatedBy,
    totalLines: totals.lines,
    totalBytes: totals.bytes,
    outputLines: content === '' ? 0 : content.split('\n').length,
    outputBytes: bytesOf(content),
    lastLinePartial: extra.lastLinePartial ?? false,
    firstLineExceedsLimit: extra.firstLineExceedsLimit ?? false,
    maxLines: limits.maxLines,
    maxBytes: limits.maxBytes,
  };
}

/** Keeps the first lines (file reads): whole lines only. */
export function truncateHead(content: string, options: TruncationOptions = {}): TruncationResult {
  const limits = { maxLines: options.maxLines ?? DEFAULT_MAX_LINES, maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES };
  const lines = content.split('\n');
  const totals = { lines: lines.length, bytes: bytesOf(content) };
  if (totals.lines <= limits.maxLines && totals.bytes <= limits.maxBytes) return result(content, totals, limits, {});
  if (bytesOf(lines[0]!) > limits.maxBytes) return result('', totals, limits, { truncatedBy: 'bytes', firstLineExceedsLimit: true });
  const kept: string[] = [];
  let used = 0;
  let truncatedBy: 'lines' | 'bytes' = 'lines';
  for (const line of lines) {
    if (kept.length >= limits.maxLines) break;
    const cost = bytesOf(line) + (kept.length > 0 ? 1 : 0);
    if (used + cost > limits.maxBytes) {
      truncatedBy = 'bytes';
      break;
    }
    kept.push(line);
    used += cost;
  }
  return result(kept.join('\n'), totals, limits, { truncatedBy });
}

/** Keeps the last lines (command output, where the end matters). */
export function truncateTail(content: string, options: TruncationOptions = {}): TruncationResult {
  const limits = { maxLines: options.maxLines ?? DEFAULT_MAX_LINES, maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES };
  const lines = content.split('\n');
  const totals = { lines: lines.length, bytes: bytesOf(content) };
  if (totals.lines <= limits.maxLines && totals.bytes <= limits.maxBytes) return result(content, totals, limits, {});
  const kept: string[] = [];
  let used = 0;
  let truncatedBy: 'lines' | 'bytes' = 'lines';
  for (let i = lines.length - 1; i >= 0 && kept.length < limits.maxLines; i--) {
    const line = lines[i]!;
    const cost = bytesOf(line) + (kept.length > 0 ? 1 : 0);
    if (used + cost > limits.maxBytes) {
      truncatedBy = 'bytes';
      if (kept.length === 0) {
        // The last line alone is over the limit: keep as much of its end as fits.
        const tail = Buffer.from(line, 'utf8').subarray(-limits.maxBytes).toString('utf8').replace(/^\uFFFD+/, '');
        return result(tail, totals, limits, { truncatedBy, lastLinePartial: true });
      }
      break;
    }
    kept.unshift(line);
    used += cost;
  }
  return result(kept.join('\n'), totals, limits, { truncatedBy });
}

/** One long line (a grep match) cut to `maxChars`. */
export function truncateLine(line: string, maxChars = GREP_MAX_LINE_LENGTH): { text: string; wasTruncated: boolean } {
  if (line.length <= maxChars) return { text: line, wasTruncated: false };
  return { text: `${line.slice(0, maxChars)}... [truncated]`, wasTruncated: true };
}
