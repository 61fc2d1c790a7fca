// What the rules saw of a call's path arguments (`tooldesk rules test`): each path-like value
// with the forms a rule tests (`~//private/x → /home/u/private/x`), and for the rule that decided,
// the form it matched — so a user sees what a rule will see before a tool runs.
import type { RuleVerdict } from '../../../../shared/permissions.ts';
import type { CompiledMatcher, CompiledRule } from './compile-rules.ts';
import { evaluateRules, isPathLike, valuesAt, type RuleCall } from './evaluate-rules.ts';
import { looksLikePath, valueForms, type PathContext } from './normalise-path.ts';

export interface PathSeen {
  /** Where in the arguments (`path`, `files.0.path`). */
  at: string;
  value: string;
  /** The forms every rule tests (an allow rule must match them all). */
  forms: string[];
  unresolvable: boolean;
  /** The deciding rule matched this value in this form (`unresolvable`: because it cannot be resolved). */
  matched?: string;
}

export interface CallExplanation {
  verdict: RuleVerdict;
  paths: PathSeen[];
}

export function explainCall(rules: readonly CompiledRule[], call: RuleCall, context: PathContext): CallExplanation {
  const verdict = evaluateRules(rules, call, context);
  const decider = verdict.action === 'none' ? undefined : rules.find((r) => r.number === verdict.rule && r.label === verdict.label);
  const paths: PathSeen[] = [];
  for (const [at, value] of strings(call.args, '')) {
    if (looksLikePath(value) && !paths.some((p) => p.value === value)) paths.push({ at, value, ...formsOf(value, context) });
  }
  for (const m of decider?.where ?? []) {
    const found = m.path ? valuesAt(m.path, call.args).flatMap((v) => strings(v, m.path!.join('.'))) : strings(call.args, '');
    for (const [at, value] of found) {
      if (!isPathLike(m, value)) continue;
      const known = paths.find((p) => p.value === value);
      const entry = known ?? { at, value, ...formsOf(value, context) };
      entry.matched ??= matchedForm(m, entry, decider!.action === 'allow');
      // A string the rule read as a path only because it holds a `/` is listed when it matched.
      if (!known && entry.matched !== undefined) paths.push(entry);
    }
  }
  return { verdict, paths };
}

function formsOf(value: string, context: PathContext): { forms: string[]; unresolvable: boolean } {
  const forms = valueForms(value, context);
  return { forms: forms.strict, unresolvable: forms.unresolvable };
}

/** The form the matcher passed on: the first for deny and ask, all of them (shown as the last) for allow. */
function matchedForm(m: CompiledMatcher, entry: PathSeen, strict: boolean): string | undefined {
  if (entry.unresolvable) return strict ? undefined : 'unresolvable';
  if (strict) return entry.forms.every((f) => m.test(f)) ? entry.forms.at(-1) : undefined;
  return [entry.value, ...entry.forms].find((f) => m.test(f));
}

/** Every string in `value` with where it is (`a.b.0`); `prefix` names `value` itself. */
function strings(value: unknown, prefix: string, out: Array<[string, string]> = [], depth = 0): Array<[string, string]> {
  if (depth > 16) return out;
  if (typeof value === 'string') out.push([prefix || '(value)', value]);
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, prefix ? `${prefix}.${i}` : String(i), out, depth + 1));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) strings(v, prefix ? `${prefix}.${k}` : k, out, depth + 1);
  return out;
}

/** One line per path argument: `  path: "~//private/x" → /home/u/private/x  (rule 1 matched it)`. */
export function explanationLines(explained: CallExplanation): string[] {
  const who = explained.verdict.label ?? 'the rule';
  return explained.paths.map((p) => {
    const where = p.unresolvable
      ? `cannot be resolved here (it depends on the process that opens it): deny and ask rules match it, allow rules never do`
      : p.forms.join(', ');
    const matched = p.matched === undefined || p.matched === 'unresolvable' ? '' : p.matched === p.value ? `  (${who} matched it as written)` : `  (${who} matched ${p.matched})`;
    return `  ${p.at}: ${JSON.stringify(p.value)} → ${where}${matched}`;
  });
}
