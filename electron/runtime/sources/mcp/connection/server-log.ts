// A server's log: its stderr, its `notifications/message` log lines and our own notes about it,
// bounded in lines and bytes so a server that floods cannot grow the app's memory. With a file,
// the bounded log is also written there (debounced), so `tooldesk mcp logs` can read it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { McpLogLine } from '../../../../../shared/tool-inspection.ts';
import { Emitter } from '../../../base/emitter.ts';
import { stableHash } from '../../../tools/model-name.ts';

export type LogSource = Exclude<McpLogLine['source'], 'progress'>;

export interface ServerLogOptions {
  maxLines?: number;
  maxBytes?: number;
  /** One line longer than this is cut. */
  maxLineChars?: number;
  file?: string;
}

export class ServerLog {
  readonly #lines: string[] = [];
  #bytes = 0;
  #dropped = 0;
  /** Lines ever added: a mark is a position in this count, valid while lines are dropped. */
  #added = 0;
  #partial = '';
  readonly #maxLines: number;
  readonly #maxBytes: number;
  readonly #maxLineChars: number;
  #secrets: string[] = [];
  readonly #file: string | undefined;
  #flushTimer: NodeJS.Timeout | undefined;
  /** A listener that throws never stops the log or the other listeners (the emitter's policy). */
  readonly #added$ = new Emitter<{ line: string; source: LogSource }>();

  constructor(options: ServerLogOptions = {}) {
    this.#maxLines = options.maxLines ?? 2000;
    this.#maxBytes = options.maxBytes ?? 256 * 1024;
    this.#maxLineChars = options.maxLineChars ?? 2000;
    this.#file = options.file;
  }

  /** Writes the log to its file now (a failure to write is not the server's problem). */
  flush(): void {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (!this.#file) return;
    try {
      mkdirSync(dirname(this.#file), { recursive: true });
      writeFileSync(this.#file, `${this.lines().join('\n')}\n`);
    } catch {
      // The in-memory log is still there.
    }
  }

  /** Values that must never appear in the log (resolved `${secret:…}` references). */
  redact(values: string[]): void {
    this.#secrets = values.filter((v) => v.length >= 4);
  }

  /** Each line as it is kept (bounded, redacted), with where it came from. Returns a disposer. */
  onLine(listener: (line: string, source: LogSource) => void): () => void {
    return this.#added$.event(({ line, source }) => listener(line, source));
  }

  /** A whole line (a note of ours, or a log notification). */
  add(line: string, source: LogSource = 'note'): void {
    let text = line.length > this.#maxLineChars ? `${line.slice(0, this.#maxLineChars)}… (${line.length - this.#maxLineChars} more characters)` : line;
    for (const secret of this.#secrets) text = text.split(secret).join('***');
    this.#lines.push(text);
    this.#added++;
    this.#added$.fire({ line: text, source });
    this.#bytes += text.length;
    while (this.#lines.length > this.#maxLines || (this.#bytes > this.#maxBytes && this.#lines.length > 1)) {
      this.#bytes -= this.#lines.shift()!.length;
      this.#dropped++;
    }
    if (this.#file && !this.#flushTimer) {
      this.#flushTimer = setTimeout(() => this.flush(), 300);
      this.#flushTimer.unref?.();
    }
  }

  /** A chunk of the server's stderr: split into lines, the unfinished one held back. */
  write(chunk: string): void {
    const parts = (this.#partial + chunk).split('\n');
    this.#partial = parts.pop() ?? '';
    if (this.#partial.length > this.#maxLineChars) {
      parts.push(this.#partial);
      this.#partial = '';
    }
    for (const part of parts) this.add(part.replace(/\r$/, ''), 'stderr');
  }

  lines(): string[] {
    const out = this.#dropped ? [`… ${this.#dropped} earlier lines dropped`, ...this.#lines] : [...this.#lines];
    return this.#partial ? [...out, this.#partial] : out;
  }

  /** Where the log is now: `excerpt(mark)` shows what came after. */
  mark(): number {
    return this.#added;
  }

  /**
   * What was logged after `mark`, for a message about a failure: its first and last lines with
   * the middle elided, since the line that says what failed is often neither the first nor the
   * last (a Node stack trace ends in frames, a Python one starts with "Traceback").
   */
  excerpt(mark: number, head = 6, tail = 6): string {
    const kept = this.#added - mark;
    const since = [...this.#lines.slice(Math.max(0, this.#lines.length - kept)), ...(this.#partial ? [this.#partial] : [])].filter((line) => line.trim() !== '');
    if (since.length <= head + tail) return since.join('\n');
    return [...since.slice(0, head), `… ${since.length - head - tail} more lines in the server's log`, ...since.slice(-tail)].join('\n');
  }
}

/** The file a server's log is kept in (the name made safe for a file name, hashed when changed). */
export function serverLogFile(dir: string, name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  return join(dir, `${safe === name ? name : `${safe}-${stableHash(name).slice(0, 6)}`}.log`);
}
