// Reads a JSONL file line by line through one fixed buffer, so a file's size never decides what
// reading it costs: a line longer than the bound is reported (its number, offset and size) and
// skipped without being held, and a line can be read again later from its offset.
import { closeSync, openSync, readSync } from 'node:fs';

export type JsonlItem =
  /** `torn`: the file ends without a newline after this line (a write cut off). */
  | { kind: 'line'; text: string; number: number; offset: number; bytes: number; torn: boolean }
  | { kind: 'oversize'; number: number; offset: number; bytes: number; torn: boolean };

const CHUNK_BYTES = 1024 * 1024;

/** Every line of `file` (empty ones included, numbered from 1). Throws only for I/O errors. */
export function* jsonlLines(file: string, maxLineBytes: number): Generator<JsonlItem> {
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(CHUNK_BYTES);
    let parts: Buffer[] = [];
    let lineBytes = 0;
    let oversize = false;
    let lineStart = 0;
    let number = 1;
    let position = 0;
    const finish = (torn: boolean): JsonlItem =>
      oversize
        ? { kind: 'oversize', number, offset: lineStart, bytes: lineBytes, torn }
        : { kind: 'line', text: Buffer.concat(parts).toString('utf8'), number, offset: lineStart, bytes: lineBytes, torn };
    for (;;) {
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, position);
      if (read === 0) break;
      let from = 0;
      while (from < read) {
        const newline = chunk.indexOf(0x0a, from);
        const end = newline === -1 || newline >= read ? read : newline;
        lineBytes += end - from;
        if (!oversize && lineBytes > maxLineBytes) {
          oversize = true;
          parts = [];
        }
        // A copy: the chunk is reused by the next read.
        if (!oversize && end > from) parts.push(Buffer.from(chunk.subarray(from, end)));
        if (end === read) break;
        yield finish(false);
        parts = [];
        oversize = false;
        lineStart = position + end + 1;
        lineBytes = 0;
        number++;
        from = end + 1;
      }
      position += read;
    }
    if (lineBytes > 0) yield finish(true);
  } finally {
    closeSync(fd);
  }
}

/** One line again, by the offset and size `jsonlLines` gave for it. */
export function readLineAt(fd: number, offset: number, bytes: number): string {
  const buffer = Buffer.alloc(bytes);
  let done = 0;
  while (done < bytes) {
    const read = readSync(fd, buffer, done, bytes - done, offset + done);
    if (read === 0) break;
    done += read;
  }
  return buffer.subarray(0, done).toString('utf8');
}
