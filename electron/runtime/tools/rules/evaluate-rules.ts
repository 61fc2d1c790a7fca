// Which rule decides a call: every matching deny beats every ask, which beats every allow; among
// equals the first in the list names the decision. Deny and ask rules match generously (any form
// of a value: as written, folded, symlinks resolved; look-alike tool names), allow rules strictly
// (every form of every value the path reaches, the exact tool name): a call reaches "allow" only
// when nothing about it could be read as something else.
import type { RuleVerdict } from '../../../../shared/permissions.ts';
import type { CompiledMatcher, CompiledRule } from './compile-rules.ts';
import { nameSkeleton } from './look-alike.ts';
import { looksLikePath, pathForms, type PathContext } from './normalise-path.ts';

export interface RuleCall {
  /** The real name and the name the model sees (they differ for aliased tools). */
  names: string[];
  args: Record<string, unknown>;
}

export function evaluateRules(rules: readonly CompiledRule[], call: RuleCall, context: PathContext): RuleVerdict {
  return evaluateForTool(rulesForTool(rules, call.names), call.args, context);
}

/**
 * The rules whose tool glob names the tool (allow: the exact name; deny and ask: its look-alike
 * skeleton too), in order. Depends on the name only, so callers may cache it per tool.
 */
export function rulesForTool(rules: readonly CompiledRule[], names: string[]): CompiledRule[] {
  let skeletons: string[] | undefined;
  return rules.filter((rule) => {
    if (names.some((n) => rule.tool.test(n))) return true;
    if (rule.action === 'allow') return false;
    skeletons ??= names.map(nameSkeleton);
    return skeletons.some((s) => rule.toolSkeleton.test(s));
  });
}

/** The decision among rules that already name the tool (rulesForTool). */
export function evaluateForTool(rules: readonly CompiledRule[], args: Record<string, unknown>, context: PathContext): RuleVerdict {
  const forms = new Map<string, string[]>();
  const formsOf = (value: string): string[] => {
    let known = forms.get(value);
    if (!known) {
      const { lexical, real } = pathForms(value, context);
      known = [value, lexical, real];
      forms.set(value, known);
    }
    return known;
  };
  let ask: CompiledRule | undefined;
  let allow: CompiledRule | undefined;
  for (const rule of rules) {
    if (rule.action === 'allow') {
      if (allow || ask) continue;
      if (rule.where.every((m) => matchesStrictly(m, args, formsOf))) allow = rule;
      continue;
    }
    if (rule.action === 'ask' && ask) continue;
    if (rule.broken) return verdict('deny', rule, `${rule.label} cannot be used (${rule.broken}); fix it in Settings → Rules or remove it with \`tooldesk rules remove ${rule.number}\`.`);
    if (!rule.where.every((m) => matchesGenerously(m, args, formsOf))) continue;
    if (rule.action === 'deny') return verdict('deny', rule, rule.reason);
    ask = rule;
  }
  if (ask) return verdict('ask', ask, ask.reason);
  if (allow) return verdict('allow', allow, allow.reason);
  return { action: 'none' };
}

function verdict(action: RuleVerdict['action'], rule: CompiledRule, reason: string | undefined): RuleVerdict {
  return { action, rule: rule.number, label: rule.label, ...(reason ? { reason } : {}) };
}

type FormsOf = (value: string) => string[];

function matchesGenerously(m: CompiledMatcher, args: unknown, formsOf: FormsOf): boolean {
  return valuesAt(m, args).some((value) => candidates(m, value, formsOf, false).some(m.test));
}

function matchesStrictly(m: CompiledMatcher, args: unknown, formsOf: FormsOf): boolean {
  const values = valuesAt(m, args);
  return values.length > 0 && values.every((value) => candidates(m, value, formsOf, true).every(m.test));
}

/**
 * The texts a value is tested as: a path-like one as written, folded and real (strict: only the
 * last two). A matcher with a path pattern treats the value at its path as a file name even when
 * relative (`notes.txt` in the working folder); one that scans every string does so only for
 * strings with a `/` or a leading `~` or `.`, so plain words cost no file system look-up.
 */
function candidates(m: CompiledMatcher, value: unknown, formsOf: FormsOf, strict: boolean): string[] {
  if (typeof value !== 'string') return [typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value) ?? 'null'];
  const pathLike = looksLikePath(value) || (m.paths && (m.path !== undefined || value.includes('/')));
  if (!pathLike) return [value];
  const [raw, lexical, real] = formsOf(value);
  return strict ? [lexical!, real!] : [raw!, lexical!, real!];
}

function valuesAt(m: CompiledMatcher, args: unknown): unknown[] {
  if (!m.path) {
    const strings: string[] = [];
    collectStrings(args, strings, 0);
    return strings;
  }
  let current: unknown[] = [args];
  for (const segment of m.path) {
    const next: unknown[] = [];
    for (const value of current) {
      if (typeof value !== 'object' || value === null) continue;
      if (segment === '*') next.push(...Object.values(value));
      else if (Object.hasOwn(value, segment)) next.push((value as Record<string, unknown>)[segment]);
    }
    current = next;
  }
  return current.filter((v) => v !== undefined);
}

function collectStrings(value: unknown, out: string[], depth: number): void {
  if (depth > 64) return;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out, depth + 1);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) collectStrings(v, out, depth + 1);
}
