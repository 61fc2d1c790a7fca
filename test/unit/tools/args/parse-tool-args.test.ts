import { describe, expect, it } from 'vitest';
import { parseToolArgs } from '../../../../electron/runtime/tools/args/parse-tool-args.ts';

describe('parseToolArgs', () => {
  it('takes objects as they are and parses JSON strings', () => {
    const args = { a: 1 };
    expect(parseToolArgs(args)).toBe(args);
    expect(parseToolArgs('{"a":[1,2]}')).toEqual({ a: [1, 2] });
  });

  it('treats nothing as no arguments', () => {
    for (const raw of [undefined, null, '']) expect(parseToolArgs(raw)).toEqual({});
  });

  it('explains what is wrong with anything else', () => {
    expect(parseToolArgs('{"a":')).toMatch(/^The arguments are not valid JSON/);
    expect(parseToolArgs('[1]')).toBe('The arguments must be a JSON object, not an array.');
    expect(parseToolArgs(5)).toBe('The arguments must be a JSON object, not number.');
  });
});
