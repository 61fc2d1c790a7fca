// "Test a call" (Settings → Rules, the API's testToolRules): the decision of the given or saved
// rules, then the tool set's, with paths resolved as a real call's would be.
import { homedir } from 'node:os';
import type { RuleVerdict, ToolRule } from '../../../../shared/permissions.ts';
import type { Settings } from '../../../../shared/settings.ts';
import { compileRules } from './compile-rules.ts';
import { evaluateRules } from './evaluate-rules.ts';
import { findToolSet } from './rule-book.ts';

export function testRules(settings: Settings, request: { tool: string; args: Record<string, unknown>; rules?: ToolRule[]; toolSet?: string }, home = homedir()): RuleVerdict {
  const all = request.rules ?? settings.toolRules ?? [];
  const global = compileRules(all, { home }).filter((_, i) => all[i]?.scope !== 'chat');
  const set = request.toolSet ? findToolSet(settings, request.toolSet) : undefined;
  const own = set ? compileRules(set.rules ?? [], { home }, (n) => `tool set "${set.name}" rule ${n}`) : [];
  return evaluateRules([...global, ...own], { names: [request.tool], args: request.args }, { home, bases: [settings.workingDir ?? home] });
}
