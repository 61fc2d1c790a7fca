import { describe, expect, it } from 'vitest';
import { countCodePoints, sliceCodePoints } from '../../../electron/runtime/base/code-points.ts';

describe('code points', () => {
  it('counts an emoji (a surrogate pair) as one character', () => {
    expect(countCodePoints('a😀b')).toBe(3);
    expect(countCodePoints('plain')).toBe(5);
    expect(countCodePoints('')).toBe(0);
  });

  it('counts a lone surrogate as one character', () => {
    expect(countCodePoints('a\uD83Db')).toBe(3);
  });

  it('slices by code point and never splits a pair', () => {
    const text = '😀😁😂🤣';
    expect(sliceCodePoints(text, 1, 2)).toBe('😁😂');
    expect(sliceCodePoints(text, 3)).toBe('🤣');
  });

  it('clamps out-of-range slices', () => {
    expect(sliceCodePoints('hello', -3, 2)).toBe('he');
    expect(sliceCodePoints('hello', 10, 2)).toBe('');
    expect(sliceCodePoints('hello', 3, 100)).toBe('lo');
    expect(sliceCodePoints('hello', 1, -1)).toBe('ello');
    expect(sliceCodePoints('h😀llo', 1, 0)).toBe('');
  });
});
