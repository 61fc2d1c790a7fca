import { describe, expect, it } from 'vitest';
import { formatSize, truncateHead, truncateLine, truncateTail } from '../../../electron/runtime/sources/module/shim/pi-truncate.ts';
import { Key, Text, truncateToWidth, visibleWidth, wrapTextWithAnsi } from '../../../electron/runtime/sources/module/shim/pi-tui.ts';
import { createPiShim } from '../../../electron/runtime/sources/module/shim/pi-shim.ts';

describe('pi truncation helpers (the fields tools read back)', () => {
  it('leaves short content alone and says so', () => {
    expect(truncateHead('a\nb')).toEqual({
      content: 'a\nb', truncated: false, truncatedBy: null, totalLines: 2, totalBytes: 3, outputLines: 2, outputBytes: 3,
      lastLinePartial: false, firstLineExceedsLimit: false, maxLines: 2000, maxBytes: 50 * 1024,
    });
  });

  it('keeps whole lines from the head, by lines or by UTF-8 bytes', () => {
    expect(truncateHead('1\n2\n3\n4', { maxLines: 2 })).toMatchObject({ content: '1\n2', truncated: true, truncatedBy: 'lines', outputLines: 2, totalLines: 4 });
    // "é" is two bytes: "éé\néé" is 9 bytes, only the first line (4 bytes) fits in 6.
    expect(truncateHead('éé\néé', { maxBytes: 6 })).toMatchObject({ content: 'éé', truncatedBy: 'bytes', outputBytes: 4, totalBytes: 9 });
    expect(truncateHead('x'.repeat(20), { maxBytes: 10 })).toMatchObject({ content: '', truncatedBy: 'bytes', firstLineExceedsLimit: true, outputLines: 0 });
  });

  it('keeps the tail, cutting into the last line only when it alone is too big', () => {
    expect(truncateTail('1\n2\n3\n4', { maxLines: 2 })).toMatchObject({ content: '3\n4', truncatedBy: 'lines', lastLinePartial: false });
    expect(truncateTail('head\n0123456789', { maxBytes: 4 })).toMatchObject({ content: '6789', truncatedBy: 'bytes', lastLinePartial: true, outputBytes: 4 });
  });

  it('formats sizes and cuts long lines like pi', () => {
    expect([formatSize(512), formatSize(2048), formatSize(3 * 1024 * 1024)]).toEqual(['512B', '2.0KB', '3.0MB']);
    expect(truncateLine('abcdef', 3)).toEqual({ text: 'abc... [truncated]', wasTruncated: true });
    expect(truncateLine('abc', 3)).toEqual({ text: 'abc', wasTruncated: false });
  });
});

describe('pi-tui stand-ins', () => {
  it('measures and cuts text by screen columns, ignoring colour codes', () => {
    expect(visibleWidth('\u001b[1mab\u001b[0m')).toBe(2);
    expect(visibleWidth('日本語')).toBe(6);
    expect(truncateToWidth('hello world', 8)).toBe('hello...');
    expect(truncateToWidth('hi', 5, '...', true)).toBe('hi   ');
    expect(wrapTextWithAnsi('aa bb cc', 5)).toEqual(['aa bb', 'cc']);
  });

  it('names keys like pi-tui and renders Text as plain lines', () => {
    expect([Key.enter, (Key.ctrl as (k: string) => string)('c'), (Key.ctrlShift as (k: string) => string)('p')]).toEqual(['enter', 'ctrl+c', 'ctrl+shift+p']);
    expect(new Text('one\ntwo long line', 0, 0).render(5)).toEqual(['one', 'two l']);
  });

  it('exposes the same values under default and named imports', () => {
    const shim = createPiShim();
    expect(shim.default).toBe(shim);
    for (const name of ['Type', 'StringEnum', 'defineTool', 'Text', 'Box', 'Container', 'matchesKey', 'truncateHead', 'DEFAULT_MAX_LINES', 'getMarkdownTheme', 'createBashTool']) {
      expect(shim[name], name).toBeDefined();
    }
  });
});
