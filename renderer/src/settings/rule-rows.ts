// Settings → Rules rows (action, tool glob, tests as text, reason) and back to rules. The check is
// the rule schema's (shared/tool-rule.ts), the one settings load and `tooldesk rules` use: a row
// that would not load is refused here in the same words, before it is saved.
import type { RuleAction, ToolRule } from '../../../shared/permissions.ts';
import { matcherText, parseMatcher } from '../../../shared/rule-text.ts';
import { ruleIssues, ruleProblemText, type RuleProblem } from '../../../shared/tool-rule.ts';

export interface RuleRow {
  action: RuleAction;
  tool: string;
  where: string;
  reason: string;
  scope?: 'chat';
}

export const toRuleRow = (r: ToolRule): RuleRow => ({ action: r.action, tool: r.tool, where: (r.where ?? []).map(matcherText).join('; '), reason: r.reason ?? '', ...(r.scope === 'chat' ? { scope: 'chat' as const } : {}) });

/** Rows back to rules, or the first problem naming the rule. */
export function rowsToRules(rows: RuleRow[]): { rules: ToolRule[] } | { error: string } {
  const rules: ToolRule[] = [];
  for (const [i, row] of rows.entries()) {
    const where = [];
    for (const part of row.where.split(';').map((p) => p.trim()).filter(Boolean)) {
      const m = parseMatcher(part);
      if ('error' in m) return { error: `Rule ${i + 1}: ${m.error}.` };
      where.push(m);
    }
    const rule: ToolRule = { action: row.action, tool: row.tool.trim(), ...(where.length ? { where } : {}), ...(row.reason.trim() ? { reason: row.reason.trim() } : {}), ...(row.scope ? { scope: row.scope } : {}) };
    const problem = ruleIssues(rule)[0];
    if (problem) return { error: `Rule ${i + 1}: ${rowProblemText(problem)}.` };
    rules.push(rule);
  }
  return { rules };
}

/** The row shows a test as the text the user typed, so a bad regex is named by its text first. */
function rowProblemText(problem: RuleProblem): string {
  if (/\.regex$/.test(problem.field) && typeof problem.value === 'string') return `the regex ${problem.value} does not compile (${ruleProblemText(problem)})`;
  return ruleProblemText(problem);
}
