// One declaration of a rule (shared/tool-rule.ts): the settings schema embeds the rule's TypeBox
// schema, and settings load, `ruleProblems` and Settings → Rules report a bad rule in the same words.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolRuleSchema, ruleProblems } from '../../../../shared/tool-rule.ts';
import { SETTINGS_SCHEMA } from '../../../../electron/runtime/store/settings-schema.ts';
import { openSettingsStore } from '../../../../electron/runtime/store/settings-store.ts';
import { parseSettings } from '../../../../electron/runtime/store/parse-settings.ts';
import { rowsToRules } from '../../../../renderer/src/settings/rule-rows.ts';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('the rule schema', () => {
  it('is the part of the settings schema that checks rules, global and in tool sets', () => {
    const properties = (SETTINGS_SCHEMA as { properties: Record<string, { items: { properties: Record<string, { items: unknown }> } & object }> }).properties;
    expect(properties.toolRules!.items).toBe(ToolRuleSchema);
    expect(properties.toolSets!.items.properties.rules!.items).toBe(ToolRuleSchema);
  });

  it('reports one invalid rule identically in settings load and in the renderer check', () => {
    const rule = { action: 'deny', tool: '   ' };
    const [problem] = ruleProblems(rule);
    expect(problem).toBe('tool must be a tool name or glob such as "browser_*"');

    const home = mkdtempSync(join(tmpdir(), 'rule-schema-'));
    homes.push(home);
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ toolRules: [{ action: 'allow', tool: 'ok' }, rule] }));
    const store = openSettingsStore(home);
    expect(store.warnings).toHaveLength(1);
    expect(store.warnings[0]).toContain(`could not be used: toolRules.1: ${problem}. It was saved as`);
    store.close();

    expect(rowsToRules([{ action: 'allow', tool: 'ok', where: '', reason: '' }, { action: 'deny', tool: '   ', where: '', reason: '' }])).toEqual({ error: `Rule 2: ${problem}.` });
  });

  it('words a bad rule in a tool set the same, and reports every field of it once', () => {
    const rule = { action: 'maybe', tool: 'x', where: [{ path: '', glob: 1, colour: 'red' }], extra: true };
    expect(ruleProblems(rule)).toEqual([
      'unknown field "extra"',
      'action must be one of allow, ask, deny (got "maybe")',
      'where[0]: unknown field "colour"',
      'where[0].path: must be a dotted path such as "url" or "files.*.path"',
      'where[0].glob: must be text',
    ]);
    expect(parseSettings({ toolSets: [{ name: 'web', rules: [rule] }] })).toEqual({ ok: false, problems: ruleProblems(rule).map((p) => `toolSets.0.rules.0: ${p}`) });
  });

  it('keeps a rule whose regex does not compile in the settings file; the rule and the renderer name it', () => {
    const rule = { action: 'deny', tool: 'read_file', where: [{ path: 'path', regex: '(unclosed' }] };
    expect(parseSettings({ toolRules: [rule] })).toMatchObject({ ok: true, settings: { toolRules: [rule] } });
    expect(ruleProblems(rule)).toEqual([expect.stringMatching(/^where\[0\]\.regex: invalid regular expression \/\(unclosed\/u: /)]);
    const checked = rowsToRules([{ action: 'deny', tool: 'read_file', where: 'path=~(unclosed', reason: '' }]);
    expect(checked).toEqual({ error: `Rule 1: the regex (unclosed does not compile (${ruleProblems(rule)[0]}).` });
  });

  it('refuses what is not a rule at all', () => {
    expect(ruleProblems('deny everything')).toEqual(['a rule must be an object {action, tool, where?, reason?}']);
    expect(ruleProblems({ action: 'deny', tool: 'x', where: 'a~b' })).toEqual(['where must be a list of matchers']);
    expect(ruleProblems({ action: 'deny', tool: 'x', where: [{}] })).toEqual(['where[0]: needs exactly one of glob, regex, prefix, equals (has none)']);
  });
});
