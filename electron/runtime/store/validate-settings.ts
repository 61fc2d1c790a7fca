// ajv check of a whole settings object; returns readable problems ("limits.maxSteps must be >= 1").
// A rule that does not fit is reported in the rule schema's own words (shared/tool-rule.ts), the
// ones `tooldesk rules` and Settings → Rules use: "toolRules.2: tool must be a tool name or …".
import type { ErrorObject } from 'ajv';
import { ruleShapeIssues, ruleProblemText } from '../../../shared/tool-rule.ts';
import check from './settings-validator.ts';

/** Where a rule sits: `/toolRules/3` or `/toolSets/1/rules/0`. */
const RULE_AT = /^\/(?:toolRules\/\d+|toolSets\/\d+\/rules\/\d+)(?=\/|$)/;
/** A tool set's `skills` list or one of its entries: `/toolSets/1/skills/0`. */
const SKILLS_AT = /^\/toolSets\/(\d+)\/skills(?:\/(\d+))?$/;

export function validateSettings(data: unknown): string[] {
  if (check(data)) return [];
  const problems: string[] = [];
  const rules = new Set<string>();
  for (const e of (check.errors ?? []) as ErrorObject[]) {
    const rule = RULE_AT.exec(e.instancePath)?.[0];
    const skills = SKILLS_AT.exec(e.instancePath);
    if (skills) {
      const problem = skillsProblem(data, e.instancePath, Number(skills[1]), skills[2]);
      if (!problems.includes(problem)) problems.push(problem);
    } else if (rule === undefined) problems.push(problemOf(e));
    else if (!rules.has(rule)) {
      rules.add(rule);
      const issues = ruleShapeIssues(at(data, rule));
      // ajv and the schema's own check agree; were they ever not to, ajv's words still refuse it.
      problems.push(...(issues.length ? issues.map((issue) => `${dotted(rule)}: ${ruleProblemText(issue)}`) : [problemOf(e)]));
    }
  }
  return problems;
}

function problemOf(e: ErrorObject): string {
  const params = e.params as { additionalProperty?: string; allowedValues?: unknown[]; allowedValue?: unknown };
  const extra =
    e.keyword === 'additionalProperties'
      ? ` (${String(params.additionalProperty)})`
      : e.keyword === 'enum'
        ? `: ${(params.allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`
        : e.keyword === 'const'
          ? `: ${JSON.stringify(params.allowedValue)}`
          : '';
  return `${dotted(e.instancePath) || 'settings'} ${e.message ?? 'is invalid'}${extra}`;
}

/** A tool set's skills entry that is no skill id, named by the set and the entry. */
function skillsProblem(data: unknown, pointer: string, set: number, entry: string | undefined): string {
  const name = (at(data, `/toolSets/${set}`) as { name?: unknown } | undefined)?.name;
  const where = `${dotted(pointer)} (tool set ${typeof name === 'string' ? `"${name}"` : set + 1})`;
  if (entry === undefined) return `${where}: must be a list of skill ids, e.g. ["pdf"]`;
  return `${where}: ${JSON.stringify(at(data, pointer))} is not a skill id: one word, as \`tooldesk skills list\` names the skill (e.g. "pdf")`;
}

const dotted = (pointer: string) => pointer.replace(/^\//, '').replace(/\//g, '.');

/** The value at a JSON pointer made of plain keys and indexes (what ajv's instancePath holds here). */
function at(data: unknown, pointer: string): unknown {
  let value = data;
  for (const key of pointer.split('/').slice(1)) value = (value as Record<string, unknown> | undefined)?.[key];
  return value;
}
