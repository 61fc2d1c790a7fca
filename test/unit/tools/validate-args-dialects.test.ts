// JSON Schema dialects (issue #22): MCP's default since 2025-11-25 is 2020-12, which ajv's
// draft-07 build refused ("no schema with key or ref …/2020-12/schema"), so such tools ran
// unvalidated. A schema is now checked in the dialect its `$schema` names; draft-07 where it says so.
import { describe, expect, it } from 'vitest';
import { ArgsValidator, schemaDialect } from '../../../electron/runtime/tools/args/validate-args.ts';

const v2020 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false },
    unit: { $ref: '#/$defs/unit' },
  },
  required: ['point'],
  additionalProperties: false,
  $defs: { unit: { enum: ['cm', 'in'] } },
};

const draft07 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false }, unit: { $ref: '#/definitions/unit' } },
  definitions: { unit: { enum: ['cm', 'in'] } },
};

describe('argument validation by dialect', () => {
  it('names the dialect a schema declares; no $schema is draft-07', () => {
    expect(schemaDialect(v2020)).toBe('2020-12');
    expect(schemaDialect({ $schema: 'https://json-schema.org/draft/2019-09/schema' })).toBe('2019-09');
    expect(schemaDialect(draft07)).toBe('draft-07');
    expect(schemaDialect({ type: 'object' })).toBe('draft-07');
  });

  it('validates a 2020-12 schema ($defs, prefixItems, items: false) instead of running unvalidated', () => {
    const validator = new ArgsValidator();
    expect(validator.validate('t', v2020, { point: [1, 2], unit: 'cm' })).toEqual({ ok: true });
    const extra = validator.validate('t', v2020, { point: [1, 2, 3] });
    expect(extra.ok).toBe(false);
    const badUnit = validator.validate('t', v2020, { point: [1, 2], unit: 'km' });
    expect(badUnit).toMatchObject({ ok: false, message: expect.stringContaining('`unit`: expected one of "cm", "in"; got "km"') });
    const wrongType = validator.validate('t', v2020, { point: ['a', 2] });
    expect(wrongType).toMatchObject({ ok: false, message: expect.stringContaining('`point[0]`: expected number, got string "a"') });
    expect(validator.validate('t', v2020, {})).toMatchObject({ ok: false, message: expect.stringContaining('missing required field `point`') });
  });

  it('keeps draft-07 semantics where the schema says draft-07 (tuple items, definitions)', () => {
    const validator = new ArgsValidator();
    expect(validator.validate('t', draft07, { pair: ['a', 1], unit: 'in' })).toEqual({ ok: true });
    expect(validator.validate('t', draft07, { pair: ['a', 1, 2] }).ok).toBe(false);
    expect(validator.validate('t', draft07, { pair: [1, 'a'] }).ok).toBe(false);
    expect(validator.validate('t', draft07, { unit: 'km' }).ok).toBe(false);
  });

  it('both dialects side by side in one validator, each schema compiled once', () => {
    const validator = new ArgsValidator();
    for (let i = 0; i < 3; i++) {
      expect(validator.validate('a', v2020, { point: [0, 0] }).ok).toBe(true);
      expect(validator.validate('b', draft07, { pair: ['x', 0] }).ok).toBe(true);
    }
  });

  it('a schema naming an unknown dialect is still refused with a warning, never a throw', () => {
    const outcome = new ArgsValidator().validate('t', { $schema: 'https://example.com/my-dialect', type: 'object' }, {});
    expect(outcome.ok).toBe(true);
    expect('warning' in outcome ? outcome.warning : '').toMatch(/The schema of t is invalid .*; arguments were not validated/);
  });
});
