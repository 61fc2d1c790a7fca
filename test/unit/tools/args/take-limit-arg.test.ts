import { describe, expect, it } from 'vitest';
import { takeLimitArg } from '../../../../electron/runtime/tools/args/take-limit-arg.ts';

const plain = { type: 'object', properties: { q: { type: 'string' } } };

describe('takeLimitArg', () => {
  it('strips limit when the schema does not declare it', () => {
    expect(takeLimitArg({ q: 'x', limit: 100 }, plain)).toEqual({ args: { q: 'x' }, limit: 100 });
    expect(takeLimitArg({ limit: -1 }, plain)).toEqual({ args: {}, limit: -1 });
    expect(takeLimitArg({ limit: '250' }, plain)).toEqual({ args: {}, limit: 250 });
  });

  it('keeps limit for tools that declare it', () => {
    const own = { type: 'object', properties: { limit: { type: 'integer' } } };
    expect(takeLimitArg({ limit: 10 }, own)).toEqual({ args: { limit: 10 } });
  });

  it('leaves args without limit untouched', () => {
    const args = { q: 'x' };
    expect(takeLimitArg(args, plain).args).toBe(args);
  });

  it('ignores a limit that is not a number, with a warning', () => {
    const out = takeLimitArg({ limit: 'lots' }, plain);
    expect(out).toMatchObject({ args: {}, warning: expect.stringContaining('Ignored limit') });
    expect(out.limit).toBeUndefined();
  });
});
