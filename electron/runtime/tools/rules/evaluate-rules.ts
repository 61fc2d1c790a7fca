// Which rule decides a call: every matching deny beats every ask, which beats every allow; among
// equals the first in the list names the decision. Deny and ask rules match generously (any form
// of a value: as written, folded, symlinks resolved, every way a tool may read it; a path that
// cannot be resolved; look-alike tool names), allow rules strictly
// (every form of every value the path reaches, the exact tool name): a call reaches "allow" only
// when nothing about it could be read as something else.
import type { RuleVerdict } from '../../../../shared/permissions.ts';
import type { CompiledMatcher, CompiledRule } from './compile-rules.ts';
import { nameSkeleton } from './look-alike.ts';
import { looksLikePath, valueForms, type PathContext, type ValueForms } from './normalise-path.ts';

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
  const values = new CallValues(args, context);
  let ask: CompiledRule | undefined;
  let allow: CompiledRule | undefined;
  for (const rule of rules) {
    if (rule.action === 'allow') {
      if (allow || ask) continue;
      if (everyMatcher(rule.where, values, true)) allow = rule;
      continue;
    }
    if (rule.action === 'ask' && ask) continue;
    if (rule.broken) return verdict('deny', rule, `${rule.label} cannot be used (${rule.broken}); fix it in Settings → Rules or remove it with \`tooldesk rules remove ${rule.number}\`.`);
    if (!everyMatcher(rule.where, values, false)) continue;
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

/**
 * One call's argument values as the rules read them, each worked out once per call: every string
 * in the arguments, and the forms of each path-like value (a path's real form costs a file system
 * look-up). Loops rather than array helpers: every call with rules on its tool passes here.
 */
class CallValues {
  private strings: string[] | undefined;
  // Most calls test one path value: kept in two fields; a Map only for the rest.
  private firstValue: string | undefined;
  private firstForms: ValueForms | undefined;
  private forms: Map<string, ValueForms> | undefined;

  constructor(
    readonly args: Record<string, unknown>,
    private readonly context: PathContext,
  ) {}

  allStrings(): string[] {
    if (!this.strings) {
      this.strings = [];
      collectStrings(this.args, this.strings, 0);
    }
    return this.strings;
  }

  formsOf(value: string): ValueForms {
    if (value === this.firstValue) return this.firstForms!;
    if (this.firstValue === undefined) {
      this.firstValue = value;
      return (this.firstForms = valueForms(value, this.context));
    }
    this.forms ??= new Map();
    let known = this.forms.get(value);
    if (!known) this.forms.set(value, (known = valueForms(value, this.context)));
    return known;
  }
}

function everyMatcher(where: readonly CompiledMatcher[], values: CallValues, strict: boolean): boolean {
  for (const m of where) if (!(strict ? matchesStrictly(m, values) : matchesGenerously(m, values))) return false;
  return true;
}

/** Some value at the matcher's path passes its test in some form. */
function matchesGenerously(m: CompiledMatcher, values: CallValues): boolean {
  if (!m.path) {
    for (const value of values.allStrings()) if (passesGenerously(m, value, values)) return true;
    return false;
  }
  const key = oneKey(m.path);
  if (key !== undefined) {
    const value = ownValue(values.args, key);
    return value !== undefined && passesGenerously(m, value, values);
  }
  for (const value of valuesAt(m.path, values.args)) if (passesGenerously(m, value, values)) return true;
  return false;
}

/** There are values at the matcher's path, and every form of every one passes its test. */
function matchesStrictly(m: CompiledMatcher, values: CallValues): boolean {
  if (!m.path) {
    const strings = values.allStrings();
    if (strings.length === 0) return false;
    for (const value of strings) if (!passesStrictly(m, value, values)) return false;
    return true;
  }
  const key = oneKey(m.path);
  if (key !== undefined) {
    const value = ownValue(values.args, key);
    return value !== undefined && passesStrictly(m, value, values);
  }
  const found = valuesAt(m.path, values.args);
  if (found.length === 0) return false;
  for (const value of found) if (!passesStrictly(m, value, values)) return false;
  return true;
}

/**
 * The texts a value is tested as: a path-like one as written and in every form of every reading
 * (normalise-path.ts; strict: only those forms); one that cannot be resolved matches generously
 * and never strictly. A matcher with a path pattern treats the value at its path as a file name even when
 * relative (`notes.txt` in the working folder); one that scans every string does so only for
 * strings with a `/` or a leading `~` or `.`, so plain words cost no file system look-up.
 */
function passesGenerously(m: CompiledMatcher, value: unknown, values: CallValues): boolean {
  if (typeof value !== 'string') return m.test(textOf(value));
  if (!isPathLike(m, value)) return m.test(value);
  if (m.test(value)) return true;
  const { generous, unresolvable } = values.formsOf(value);
  // Where it leads cannot be known: it could be what the rule names.
  if (unresolvable) return true;
  for (let i = generous[0] === value ? 1 : 0; i < generous.length; i++) if (m.test(generous[i]!)) return true;
  return false;
}

function passesStrictly(m: CompiledMatcher, value: unknown, values: CallValues): boolean {
  if (typeof value !== 'string') return m.test(textOf(value));
  if (!isPathLike(m, value)) return m.test(value);
  const { strict, unresolvable } = values.formsOf(value);
  if (unresolvable) return false;
  for (const form of strict) if (!m.test(form)) return false;
  return true;
}

export function isPathLike(m: CompiledMatcher, value: string): boolean {
  return looksLikePath(value) || (m.paths && (m.path !== undefined || value.includes('/')));
}

function textOf(value: unknown): string {
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : (JSON.stringify(value) ?? 'null');
}

/** A matcher's path that names one argument (most do): read without arrays. */
function oneKey(path: readonly string[]): string | undefined {
  return path.length === 1 && path[0] !== '*' ? path[0] : undefined;
}

function ownValue(args: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(args, key) ? args[key] : undefined;
}

export function valuesAt(path: readonly string[], args: unknown): unknown[] {
  let current: unknown[] = [args];
  for (const segment of path) {
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
