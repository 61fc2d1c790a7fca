// Pure head+tail truncation (seed 002's truncateContent): keeps the start and the end of a text
// and replaces the middle with a note saying how much was left out. Counts code points.
import { DEFAULT_LIMITS } from '../../../../shared/settings.ts';
import type { TruncationInfo } from '../../../../shared/tools.ts';
import { codeUnitIndex, codeUnitIndexFromEnd, countCodePoints } from '../../base/code-points.ts';

export const DEFAULT_TRUNCATE_CHARS = DEFAULT_LIMITS.truncateChars;

export interface TruncatedText extends TruncationInfo {
  text: string;
  /** Code points kept from the start: where the omitted part begins (for "read the next slice"). */
  headLength: number;
}

/** The share of the kept characters taken from the head; the end of an output often matters too. */
const HEAD_SHARE = 0.6;

export function elisionNote(omitted: number): string {
  return `\n\n[... ${omitted} characters omitted ...]\n\n`;
}

/**
 * Keeps at most `limit` characters of `text` (plus the elision note). A limit of 0, a negative
 * limit or a non-finite one means no truncation.
 */
export function truncateContent(text: string, limit: number = DEFAULT_TRUNCATE_CHARS): TruncatedText {
  // Cheap exits first: a string never has more code points than UTF-16 units.
  if (!(limit > 0) || !Number.isFinite(limit) || text.length <= limit) return uncut(text, countCodePoints(text));
  const originalLength = countCodePoints(text);
  if (originalLength <= limit) return uncut(text, originalLength);

  const keep = Math.floor(limit);
  const headLength = Math.ceil(keep * HEAD_SHARE);
  const tailLength = keep - headLength;
  const head = text.slice(0, codeUnitIndex(text, headLength));
  const tail = tailLength > 0 ? text.slice(codeUnitIndexFromEnd(text, tailLength)) : '';
  const omitted = originalLength - keep;
  return {
    text: head + elisionNote(omitted) + tail,
    truncated: true,
    originalLength,
    keptLength: keep,
    omitted,
    headLength,
  };
}

/** A module function, not a closure per call: the executor truncates on every call. */
function uncut(text: string, length: number): TruncatedText {
  return { text, truncated: false, originalLength: length, keptLength: length, omitted: 0, headLength: length };
}
