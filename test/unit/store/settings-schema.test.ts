// The settings schema is compiled without ajv's meta-schema check at every start
// (validate-settings.ts); this is that check, once, here.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { SETTINGS_SCHEMA } from '../../../electron/runtime/store/settings-schema.ts';
import { validateSettings } from '../../../electron/runtime/store/validate-settings.ts';
import { defaultSettings } from '../../../shared/settings.ts';

describe('settings schema', () => {
  it('is a valid JSON Schema (the check skipped at start)', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    expect(ajv.validateSchema(SETTINGS_SCHEMA), JSON.stringify(ajv.errors)).toBe(true);
  });

  it('still refuses what the schema refuses, with the field named', () => {
    expect(validateSettings({ limits: { maxSteps: 0 } })).toEqual(expect.arrayContaining([expect.stringMatching(/^limits\.maxSteps must be >= 1/)]));
  });

  it('takes skill ids in a tool set, and names the set and the entry of one that is not a skill id', () => {
    const sets = [{ name: 'ok', tools: ['read_file'], skills: ['pdf', 'agents:docx'] }, { name: 'forms', skills: ['pdf', 'my skill', ''] }, { name: 'bad', skills: 'pdf' }];
    expect(validateSettings({ ...defaultSettings(), toolSets: sets.slice(0, 1) })).toEqual([]);
    const id = (entry: string) => `is not a skill id: one word, as \`tooldesk skills list\` names the skill (e.g. "pdf")`.replace(/^/, `${entry} `);
    expect(validateSettings({ ...defaultSettings(), toolSets: sets })).toEqual([
      `toolSets.1.skills.1 (tool set "forms"): ${id('"my skill"')}`,
      `toolSets.1.skills.2 (tool set "forms"): ${id('""')}`,
      'toolSets.2.skills (tool set "bad"): must be a list of skill ids, e.g. ["pdf"]',
    ]);
  });
});
