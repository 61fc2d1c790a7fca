import { describe, expect, it } from 'vitest';
import { DEFAULT_TRUNCATE_CHARS, truncateContent } from '../../../../electron/runtime/tools/result/truncate-content.ts';

describe('truncateContent', () => {
  it('leaves short text alone and says so', () => {
    const out = truncateContent('short', 10);
    expect(out).toMatchObject({ text: 'short', truncated: false, originalLength: 5, keptLength: 5, omitted: 0 });
  });

  it('defaults to 8000 characters', () => {
    expect(DEFAULT_TRUNCATE_CHARS).toBe(8000);
    const text = 'x'.repeat(8000);
    expect(truncateContent(text).truncated).toBe(false);
    const longer = truncateContent(`${text}y`);
    expect(longer).toMatchObject({ truncated: true, originalLength: 8001, keptLength: 8000, omitted: 1 });
  });

  it('keeps the head and the tail and notes what was left out in the middle', () => {
    const text = `HEAD${'-'.repeat(1000)}TAIL`;
    const out = truncateContent(text, 100);
    expect(out.truncated).toBe(true);
    expect(out.text.startsWith('HEAD')).toBe(true);
    expect(out.text.endsWith('TAIL')).toBe(true);
    expect(out.text).toContain(`${out.omitted} characters omitted`);
    expect(out.keptLength).toBe(100);
    expect(out.omitted).toBe(text.length - 100);
    expect(out.headLength + (out.keptLength - out.headLength)).toBe(100);
  });

  it('counts emoji as one character and never splits a surrogate pair', () => {
    const text = '😀'.repeat(300);
    const out = truncateContent(text, 101);
    expect(out).toMatchObject({ truncated: true, originalLength: 300, keptLength: 101, omitted: 199 });
    const kept = out.text.replace(/\s*\[\.\.\. 199 characters omitted \.\.\.\]\s*/, '');
    expect(kept).toBe('😀'.repeat(101));
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(out.text)).toBe(false);
  });

  it('does not truncate text whose UTF-16 length exceeds the limit but whose characters do not', () => {
    const text = '😀'.repeat(60); // 120 UTF-16 units, 60 characters
    expect(truncateContent(text, 100)).toMatchObject({ truncated: false, originalLength: 60 });
  });

  it('handles multibyte CJK text', () => {
    const text = '中文字符'.repeat(100);
    const out = truncateContent(text, 40);
    expect(out.originalLength).toBe(400);
    expect(out.text.startsWith('中文字符中文字符')).toBe(true);
    expect(out.text.endsWith('中文字符')).toBe(true);
  });

  it('treats 0, negative and non-finite limits as no truncation', () => {
    const text = 'y'.repeat(20_000);
    for (const limit of [0, -1, Infinity, NaN]) expect(truncateContent(text, limit).truncated).toBe(false);
  });
});
