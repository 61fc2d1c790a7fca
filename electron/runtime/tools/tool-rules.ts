// The tool part of the system prompt (seed 002's toolRules): base rules, then each enabled
// group's rulePrompt followed by its skill-rule index (alwaysLoad rules inline, the rest listed
// with the ReadVar call that loads them).
import { errorText } from './run-tool.ts';
import type { ToolCatalog } from './tool-catalog.ts';
import type { SkillRule, ToolGroup } from './types.ts';
import type { VariableSystem } from './variables/variable-system.ts';

export const BASE_TOOL_RULES = [
  '# Tool use',
  '- Never invent, guess or fabricate tool output. Only a real tool call produces a result; if a call fails, say so.',
  '- Tool results are stored as variables: `{tool}_{callId}_result` holds the full output and `{tool}_{callId}_args` the arguments.',
  '- Long results are shown truncated (head and tail). Read the rest with ReadVar {"name": "...", "start": N, "length": M};',
  '  ListVars lists what is stored (filter by type, tag or search text).',
  '- To pass a stored value to a tool without copying it, write $VAR_REF{{name}} inside any string argument,',
  '  or $VAR_REF{{name:start:length}} for a slice (characters). It is replaced before the tool runs.',
  '- Any call may carry an extra `limit` argument: how many characters of output to show (-1 for all),',
  '  unless the tool defines a `limit` parameter of its own.',
  '- If the user rejects a call, do not retry it unchanged; follow the reason they gave.',
].join('\n');

export function ruleVariableName(groupName: string, ruleName: string): string {
  return `Rule/${groupName}/${ruleName}`;
}

export function groupRulePrompt(group: ToolGroup, enabledToolNames: string[], log?: (message: string) => void): string {
  const parts: string[] = [];
  if (typeof group.rulePrompt === 'string') {
    parts.push(group.rulePrompt.trim());
  } else if (typeof group.rulePrompt === 'function') {
    try {
      parts.push(String(group.rulePrompt(enabledToolNames) ?? '').trim());
    } catch (error) {
      log?.(`rulePrompt of group ${group.name} threw: ${errorText(error)}`);
    }
  }
  if (group.declareSkillRules) parts.push(skillRuleIndex(group.name, group.declareSkillRules));
  return parts.filter(Boolean).join('\n\n');
}

export function skillRuleIndex(groupName: string, rules: Record<string, SkillRule>): string {
  const inline: string[] = [];
  const rows: string[] = [];
  for (const [name, rule] of Object.entries(rules)) {
    const variable = ruleVariableName(groupName, name);
    if (rule.alwaysLoad) {
      inline.push(`### Rule ${name}${rule.desc ? `: ${oneLine(rule.desc)}` : ''}\n${rule.prompt.trim()}`);
    } else {
      rows.push(`| ${cell(name)} | ${cell(rule.desc)} | ${cell(rule.when ?? '')} | ReadVar {"name": ${JSON.stringify(variable)}} |`);
    }
  }
  const table = rows.length
    ? ['Skill rules (read one with ReadVar before doing what it covers):', '| Rule | What | When | Read with |', '|---|---|---|---|', ...rows].join('\n')
    : '';
  return [...inline, table].filter(Boolean).join('\n\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|');
}

/** A group's skill rules as RULE variables (kept forever, read with ReadVar). */
export function addSkillRules(variables: VariableSystem, group: ToolGroup): void {
  for (const [ruleName, rule] of Object.entries(group.declareSkillRules ?? {})) {
    variables.add(ruleVariableName(group.name, ruleName), rule.prompt, 'RULE', { desc: rule.desc, tags: ['rule', group.name] });
  }
}

/** After the variables were restored or cleared: every registered group's rules are there again. */
export function restoreMissingRules(variables: VariableSystem, groups: Iterable<{ name: string; group: ToolGroup }>): void {
  for (const { name, group } of groups) {
    const rules = Object.keys(group.declareSkillRules ?? {});
    if (rules.some((rule) => !variables.has(ruleVariableName(name, rule)))) addSkillRules(variables, { ...group, name });
  }
}

/** The tool part of the system prompt: the base rules, then each enabled group's rule prompt. */
export function toolRulesText(catalog: ToolCatalog, log?: (message: string) => void): string {
  const parts = [BASE_TOOL_RULES];
  const enabled = catalog.executableTools();
  for (const group of catalog.allGroups()) {
    if (!catalog.isGroupEnabled(group.name)) continue;
    // Real names: rulePrompt functions are written by the group's author against their own names.
    const names = enabled.filter((t) => t.groupName === group.name).map((t) => t.name);
    const text = groupRulePrompt(group.group, names, log);
    if (text) parts.push(`## Tool group: ${group.name}\n${text}`);
  }
  return parts.join('\n\n');
}
