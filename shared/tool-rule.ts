// The permission rule, declared once. `ToolRuleSchema` (TypeBox) is the rule's type (`Static`),
// the part of the settings schema that checks `toolRules` and a tool set's `rules`
// (electron/runtime/store/settings-schema.ts embeds it), and the check behind `ruleProblems`, which
// the runtime (compiling rules, `tooldesk rules add`, an approval card's rule) and Settings → Rules
// in the renderer both call. Each node says in `problem` what a user reads when the value there
// does not fit, so every place reports a bad rule in the same words.
//
// Two things a settings file may hold but a rule cannot be used with — a matcher without exactly
// one test, a regex that does not compile — are checked here too (`meaningProblems`), not by the
// settings schema: one bad pattern must never reset the settings file; such a rule is kept and
// compiled as broken (it denies the tools its glob names).
import * as Type from '@sinclair/typebox/type';
import type { Static, TSchema } from '@sinclair/typebox/type';
import { Errors, ValueErrorType } from '@sinclair/typebox/errors';

export const RULE_ACTIONS = ['allow', 'ask', 'deny'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

/** A matcher's tests: exactly one per matcher. */
export const RULE_TESTS = ['glob', 'regex', 'prefix', 'equals'] as const;

const text = Type.String({ problem: 'must be text' });

/**
 * One test on the resolved arguments. `path` is a dotted path (`a.b.0`, `*` for any key or item)
 * or a JSON pointer (`/a/b`); absent, every string anywhere in the arguments is tested. Exactly one
 * of `glob`, `regex`, `prefix`, `equals`. Path-like values (and values tested by a path-like
 * pattern) are matched after `~`, `..` and symlinks are resolved.
 */
export const RuleMatcherSchema = Type.Object(
  {
    path: Type.Optional(Type.String({ minLength: 1, problem: 'must be a dotted path such as "url" or "files.*.path"' })),
    glob: Type.Optional(text),
    regex: Type.Optional(text),
    prefix: Type.Optional(text),
    equals: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false, problem: 'must be an object {path, glob|regex|prefix|equals}' },
);
export type RuleMatcher = Static<typeof RuleMatcherSchema>;

export const ToolRuleSchema = Type.Object(
  {
    action: Type.Union(
      RULE_ACTIONS.map((action) => Type.Literal(action)),
      { problem: `must be one of ${RULE_ACTIONS.join(', ')} (got {value})` },
    ),
    /** Glob on the tool's name (`*`, `?`; MCP tools are `server__tool`). */
    tool: Type.String({ pattern: '\\S', problem: 'must be a tool name or glob such as "browser_*"' }),
    /** Every matcher must match (and). */
    where: Type.Optional(Type.Array(RuleMatcherSchema, { problem: 'must be a list of matchers' })),
    /** Told to the model (deny) and shown in the chat. */
    reason: Type.Optional(Type.String({ problem: 'must be text' })),
    /** `chat`: only in the chats (tool sets) that carry it; default `global`. */
    scope: Type.Optional(Type.Union([Type.Literal('global'), Type.Literal('chat')], { problem: 'must be "global" or "chat"' })),
  },
  { additionalProperties: false, problem: 'a rule must be an object {action, tool, where?, reason?}' },
);
export type ToolRule = Static<typeof ToolRuleSchema>;

/** One problem of a rule: `field` is where it is (`''` the rule, `action`, `where[0]`, `where[0].regex`). */
export interface RuleProblem {
  field: string;
  text: string;
  /** The value found there (absent: missing). */
  value?: unknown;
}

/** The rule's shape against the schema, one problem per field, in the words of the schema's nodes. */
export function ruleShapeIssues(rule: unknown): RuleProblem[] {
  const seen = new Map<string, RuleProblem>();
  for (const error of Errors(ToolRuleSchema, rule)) {
    const unknownField = error.type === ValueErrorType.ObjectAdditionalProperties;
    const pointer = unknownField ? error.path.slice(0, error.path.lastIndexOf('/')) : error.path;
    const field = fieldName(pointer);
    const key = unknownField ? error.path : pointer;
    if (seen.has(key)) continue;
    const problem = (error.schema as TSchema & { problem?: string }).problem ?? error.message;
    const found = unknownField ? `unknown field "${error.path.slice(pointer.length + 1).replace(/~1/g, '/').replace(/~0/g, '~')}"` : problem.replace('{value}', JSON.stringify(error.value));
    seen.set(key, { field, text: found, ...(error.value === undefined ? {} : { value: error.value }) });
  }
  return [...seen.values()];
}

/** Every problem of a rule: its shape, then what makes a well-shaped matcher unusable. */
export function ruleIssues(rule: unknown): RuleProblem[] {
  const issues = ruleShapeIssues(rule);
  const where = typeof rule === 'object' && rule !== null ? (rule as { where?: unknown }).where : undefined;
  if (Array.isArray(where)) where.forEach((matcher, i) => issues.push(...meaningProblems(matcher, `where[${i}]`)));
  return issues;
}

function meaningProblems(matcher: unknown, field: string): RuleProblem[] {
  if (typeof matcher !== 'object' || matcher === null || Array.isArray(matcher)) return [];
  const m = matcher as Record<string, unknown>;
  const problems: RuleProblem[] = [];
  const tests = RULE_TESTS.filter((t) => m[t] !== undefined);
  if (tests.length !== 1) problems.push({ field, text: `needs exactly one of ${RULE_TESTS.join(', ')} (has ${tests.length ? tests.join(', ') : 'none'})` });
  if (typeof m.regex === 'string') {
    try {
      new RegExp(m.regex, 'u');
    } catch (error) {
      const why = (error as Error).message.replace(/^Invalid regular expression: /, 'invalid regular expression ');
      problems.push({ field: `${field}.regex`, text: why, value: m.regex });
    }
  }
  return problems;
}

/** How a problem reads in the CLI, the settings warnings and a broken rule's reason: `where[0].regex: …`, `action must be …`. */
export function ruleProblemText({ field, text }: RuleProblem): string {
  if (!field) return text;
  return field.includes('[') ? `${field}: ${text}` : `${field} ${text}`;
}

/** Problems of one rule, each naming the field (`where[0].regex: …`). Empty when it is valid. */
export function ruleProblems(rule: unknown): string[] {
  return ruleIssues(rule).map(ruleProblemText);
}

/** `/where/0/regex` → `where[0].regex`. */
function fieldName(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}
