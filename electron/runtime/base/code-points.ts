// Character counting and slicing by Unicode code point, so a cut never splits a surrogate pair.
// Both truncation and ReadVar/$VAR_REF slices use these, so offsets in hints line up.

const SURROGATE = /[\uD800-\uDFFF]/;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Number of code points in `text` (a lone surrogate counts as one). */
export function countCodePoints(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    count++;
    if (isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1))) i++;
  }
  return count;
}

/** The UTF-16 index where code point number `points` starts (clamped to the text). */
export function codeUnitIndex(text: string, points: number): number {
  if (points <= 0) return 0;
  let i = 0;
  let seen = 0;
  while (i < text.length && seen < points) {
    if (isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1))) i += 2;
    else i++;
    seen++;
  }
  return i;
}

/** The UTF-16 index where the last `points` code points begin (clamped to the text). */
export function codeUnitIndexFromEnd(text: string, points: number): number {
  if (points <= 0) return text.length;
  let i = text.length;
  let seen = 0;
  while (i > 0 && seen < points) {
    if (isLowSurrogate(text.charCodeAt(i - 1)) && isHighSurrogate(text.charCodeAt(i - 2))) i -= 2;
    else i--;
    seen++;
  }
  return i;
}

/**
 * `length` code points starting at code point `start`. Out-of-range values clamp: a negative
 * start reads from 0, a start past the end gives '', a missing or negative length reads to the end.
 */
export function sliceCodePoints(text: string, start = 0, length?: number): string {
  const from = Math.max(0, Math.trunc(start) || 0);
  const hasSurrogates = SURROGATE.test(text);
  const begin = hasSurrogates ? codeUnitIndex(text, from) : Math.min(from, text.length);
  if (length === undefined || length < 0 || !Number.isFinite(length)) return text.slice(begin);
  const count = Math.trunc(length);
  if (!hasSurrogates) return text.slice(begin, begin + count);
  const rest = text.slice(begin);
  return rest.slice(0, codeUnitIndex(rest, count));
}
