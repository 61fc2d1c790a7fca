import { describe, expect, it } from 'vitest';
import { ArgsValidator, MAX_LISTED_ERRORS } from '../../../../electron/runtime/tools/args/validate-args.ts';
import { MAX_SCHEMA_NODES, schemaNodeCount } from '../../../../electron/runtime/tools/args/large-schema.ts';

const schema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    mode: { type: 'string', enum: ['read', 'write'] },
    count: { type: 'integer', minimum: 1 },
    opts: { type: 'object', properties: { depth: { type: 'number' } }, additionalProperties: false },
    items: { type: 'array', items: { type: 'string' } },
  },
  required: ['path'],
  additionalProperties: false,
};

describe('ArgsValidator', () => {
  const validator = new ArgsValidator();

  it('accepts valid arguments', () => {
    expect(validator.validate('t', schema, { path: '/x', mode: 'read', count: 2, items: ['a'] })).toEqual({ ok: true });
  });

  it('writes every error for the model: field, expected, given', () => {
    const out = validator.validate('files', schema, { mode: 'delete', count: 0, extra: 1, opts: { depth: 'deep' }, items: ['a', 3] });
    expect(out.ok).toBe(false);
    const message = !out.ok ? out.message : '';
    expect(message).toContain('Invalid arguments for files:');
    expect(message).toContain('missing required field `path`');
    expect(message).toContain('`mode`: expected one of "read", "write"; got "delete"');
    expect(message).toContain('`count`: must be >= 1; got 0');
    expect(message).toContain('unexpected field `extra` (allowed: path, mode, count, opts, items)');
    expect(message).toContain('`opts.depth`: expected number, got string "deep"');
    expect(message).toContain('`items[1]`: expected string, got integer 3');
    expect(message).toContain('call it again');
  });

  it('does not refuse a tool whose schema is broken, but warns', () => {
    const out = validator.validate('t', { type: 'object', properties: { a: { type: 'nonsense' } } }, { a: 1 });
    expect(out).toMatchObject({ ok: true, warning: expect.stringContaining('schema of t is invalid') });
  });

  it('ignores unknown keywords and formats (strict off)', () => {
    const loose = { type: 'object', properties: { when: { type: 'string', format: 'date-time', 'x-ui': 1 } } };
    expect(validator.validate('t', loose, { when: 'not a date' })).toEqual({ ok: true });
  });
});

describe('ArgsValidator on very wide schemas', () => {
  function wide(count: number, required: (names: string[]) => string[]) {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) properties[`p${i}`] = { type: 'string' };
    return { type: 'object', properties, required: required(Object.keys(properties)), additionalProperties: false };
  }

  it('bounds the time and the message: 50 000 missing required fields', () => {
    const schema = wide(50_000, (names) => names);
    const started = performance.now();
    const out = new ArgsValidator().validate('wide', schema, {});
    const elapsed = performance.now() - started;
    expect(out.ok).toBe(false);
    const message = !out.ok ? out.message : '';
    expect(message.split('\n').filter((line) => line.startsWith('- missing required field'))).toHaveLength(MAX_LISTED_ERRORS);
    expect(message).toContain(`- ... and ${50_000 - MAX_LISTED_ERRORS} more problems`);
    expect(message.length).toBeLessThan(4000);
    // Compiling the whole schema took 9-16 s here; the narrowed one takes well under a second.
    expect(elapsed).toBeLessThan(3000);
  });

  it('still checks a wide schema exactly: types of the passed fields, unknown fields, required ones', () => {
    const schema = wide(5000, () => ['p1', 'p2']);
    const validator = new ArgsValidator();
    expect(validator.validate('wide', schema, { p1: 'a', p2: 'b', p4999: 'c' })).toEqual({ ok: true });
    const out = validator.validate('wide', schema, { p1: 3, zz: 1 });
    const message = !out.ok ? out.message : '';
    expect(message).toContain('missing required field `p2`');
    expect(message).toContain('`p1`: expected string, got integer 3');
    // The allowed list names the whole schema, capped, not just the fields the call passed.
    expect(message).toContain('unexpected field `zz` (allowed: p0, p1, p2,');
    expect(message).toContain('and 4980 more)');
  });

  it('does not validate (but warns) when even the narrowed schema is too large', () => {
    const schema = wide(5000, () => []);
    const args = Object.fromEntries(Object.keys(schema.properties).map((name) => [name, 'x']));
    expect(new ArgsValidator().validate('wide', schema, args)).toMatchObject({
      ok: true,
      warning: expect.stringContaining('too large to check'),
    });
  });

  it('caps one line however long the field name the model made up', () => {
    const out = new ArgsValidator().validate('t', schema, { path: 'x', ['k'.repeat(100_000)]: 1 });
    const message = !out.ok ? out.message : '';
    expect(message).toContain('unexpected field `kkk');
    expect(message.length).toBeLessThan(600);
  });
});

describe('schemaNodeCount', () => {
  it('counts subschemas, stops past the cap and survives cycles', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(schemaNodeCount(cyclic)).toBe(2);
    expect(schemaNodeCount(schema)).toBeLessThan(MAX_SCHEMA_NODES);
    const big = { properties: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`p${i}`, {}])) };
    expect(schemaNodeCount(big)).toBe(MAX_SCHEMA_NODES + 1);
  });
});
