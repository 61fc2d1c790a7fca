// The settings schema is compiled without ajv's meta-schema check at every start
// (validate-settings.ts); this is that check, once, here.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { SETTINGS_SCHEMA } from '../../../electron/runtime/store/settings-schema.ts';
import { validateSettings } from '../../../electron/runtime/store/validate-settings.ts';

describe('settings schema', () => {
  it('is a valid JSON Schema (the check skipped at start)', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    expect(ajv.validateSchema(SETTINGS_SCHEMA), JSON.stringify(ajv.errors)).toBe(true);
  });

  it('still refuses what the schema refuses, with the field named', () => {
    expect(validateSettings({ limits: { maxSteps: 0 } })).toEqual(expect.arrayContaining([expect.stringMatching(/^limits\.maxSteps must be >= 1/)]));
  });
});
