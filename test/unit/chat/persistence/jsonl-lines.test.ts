// The fixed-buffer line reader behind `sessions show`: lines that cross its 1 MB reads, a line
// over the bound reported (number, offset, size) and never held, a torn last line, and every
// offset good for reading the line again.
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonlLines, readLineAt } from '../../../../electron/runtime/chat/persistence/jsonl-lines.ts';

describe('jsonlLines', () => {
  it('splits lines across reads, reports an over-long one and a torn end, with offsets to read them again', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-jsonl-')), 'log.jsonl');
    const long = 'a'.repeat(1536 * 1024); // crosses the 1 MB read
    const tooLong = 'b'.repeat(3 * 1024 * 1024);
    writeFileSync(file, `first\n\n${long}\n${tooLong}\nafter ü\ntorn`);
    const items = [...jsonlLines(file, 2 * 1024 * 1024)];
    expect(items.map((i) => [i.kind, i.number, i.bytes, i.torn])).toEqual([
      ['line', 1, 5, false],
      ['line', 2, 0, false],
      ['line', 3, long.length, false],
      ['oversize', 4, tooLong.length, false],
      ['line', 5, Buffer.byteLength('after ü'), false],
      ['line', 6, 4, true],
    ]);
    const texts = items.map((i) => (i.kind === 'line' ? i.text : null));
    expect(texts[2]).toBe(long);
    expect(texts[4]).toBe('after ü');
    expect(texts[5]).toBe('torn');
    const fd = openSync(file, 'r');
    try {
      for (const item of items) if (item.kind === 'line') expect(readLineAt(fd, item.offset, item.bytes)).toBe(item.text);
      expect(readLineAt(fd, items[3]!.offset, 3)).toBe('bbb');
    } finally {
      closeSync(fd);
    }
  });

  it('reads an empty file as no lines, and a file ending in a newline without a torn line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-jsonl-'));
    writeFileSync(join(dir, 'empty'), '');
    writeFileSync(join(dir, 'whole'), 'x\ny\n');
    expect([...jsonlLines(join(dir, 'empty'), 100)]).toEqual([]);
    expect([...jsonlLines(join(dir, 'whole'), 100)].map((i) => i.kind === 'line' && [i.text, i.torn])).toEqual([
      ['x', false],
      ['y', false],
    ]);
  });
});
