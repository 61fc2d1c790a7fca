// Rules as the user wrote them → checked and compiled once. A rule that cannot be compiled (a bad
// regex, a matcher with no test) is kept as broken: it denies the tools its glob names, with a
// message naming the rule and what to do, rather than silently not protecting anything.
import { RULE_ACTIONS, RULE_TESTS, ruleProblems, type RuleAction, type RuleMatcher, type ToolRule } from '../../../../shared/tool-rule.ts';
import { expandHome } from './normalise-path.ts';
import { globToRegExp, isPathPattern } from './glob.ts';
import { nameSkeleton } from './look-alike.ts';
import { realOfLongestExisting } from './kernel-path.ts';

type TestKind = (typeof RULE_TESTS)[number];

export interface CompiledMatcher {
  /** Path segments; `undefined`: every string in the arguments. */
  path: string[] | undefined;
  kind: TestKind;
  /** The pattern applies to paths: values are normalised before the test. */
  paths: boolean;
  test: (value: string) => boolean;
  equals: string | undefined;
}

export interface CompiledRule {
  /** 1-based position in its list. */
  number: number;
  /** How the chat and the CLI name it: "rule 3", "tool set "web" rule 1". */
  label: string;
  action: RuleAction;
  reason: string | undefined;
  tool: RegExp;
  /** The tool glob with look-alike letters folded (deny and ask match it too). */
  toolSkeleton: RegExp;
  where: CompiledMatcher[];
  /** Why it cannot be used; such a rule denies what its tool glob names. */
  broken: string | undefined;
}

export interface CompileContext {
  home: string;
}

export function compileRules(rules: readonly unknown[], context: CompileContext, labelOf: (n: number) => string = (n) => `rule ${n}`): CompiledRule[] {
  return rules.map((rule, index) => compileRule(rule, index + 1, labelOf(index + 1), context));
}

function compileRule(rule: unknown, number: number, label: string, context: CompileContext): CompiledRule {
  const problems = ruleProblems(rule);
  const r = (typeof rule === 'object' && rule !== null ? rule : {}) as Partial<ToolRule>;
  const toolGlob = typeof r.tool === 'string' && r.tool.trim() ? r.tool.trim() : '*';
  // Every rule and matcher has one shape (absent fields undefined, not missing): the rules are
  // read on every call, and one shape keeps those reads fast.
  const broken = problems.length ? problems.join('; ') : undefined;
  return {
    number,
    label,
    action: broken === undefined && RULE_ACTIONS.includes(r.action as RuleAction) ? (r.action as RuleAction) : 'deny',
    reason: typeof r.reason === 'string' && r.reason.trim() ? r.reason.trim() : undefined,
    tool: globToRegExp(toolGlob, { paths: false }),
    toolSkeleton: globToRegExp(nameSkeleton(toolGlob), { paths: false }),
    where: broken === undefined ? (r.where ?? []).map((m) => compileMatcher(m, context)) : [],
    broken,
  };
}

function compileMatcher(m: RuleMatcher, context: CompileContext): CompiledMatcher {
  const path = m.path === undefined ? undefined : splitPath(m.path);
  if (m.regex !== undefined) {
    const re = new RegExp(m.regex, 'u');
    return { path, kind: 'regex', paths: false, test: (v) => re.test(v), equals: undefined };
  }
  if (m.equals !== undefined) {
    const want = typeof m.equals === 'string' ? m.equals : JSON.stringify(m.equals);
    return { path, kind: 'equals', paths: false, test: (v) => v === want, equals: want };
  }
  const pattern = (m.glob ?? m.prefix)!;
  const paths = isPathPattern(pattern);
  // The pattern's own folders are resolved like the values' (a home behind a symlink).
  const normalised = paths ? normalisePattern(pattern, context.home) : pattern;
  if (m.glob !== undefined) {
    const re = globToRegExp(normalised, { paths });
    return { path, kind: 'glob', paths, test: (v) => re.test(v), equals: undefined };
  }
  // A path prefix matches whole folder names: `/home/u/pro` is not a prefix of `/home/u/projects`.
  const folder = normalised.endsWith('/') ? normalised : `${normalised}/`;
  return { path, kind: 'prefix', paths, test: paths ? (v) => v === normalised || v.startsWith(folder) : (v) => v.startsWith(normalised), equals: undefined };
}

function normalisePattern(pattern: string, home: string): string {
  const expanded = expandHome(pattern, home);
  const wild = expanded.search(/[*?[]/);
  const literal = wild === -1 ? expanded : expanded.slice(0, expanded.lastIndexOf('/', wild) + 1);
  if (!literal || literal === '/') return expanded;
  const trailing = literal.endsWith('/') && literal.length > 1;
  const real = realOfLongestExisting(trailing ? literal.slice(0, -1) : literal);
  return `${real}${trailing ? '/' : ''}${expanded.slice(literal.length)}`;
}

/** `a.b.0`, `files.*.path` or a JSON pointer `/a/b` (with ~1 and ~0). */
export function splitPath(path: string): string[] {
  if (path.startsWith('/')) return path.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return path.split('.');
}
