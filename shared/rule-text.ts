// Rules as one line of text, both ways: `--where` of `tooldesk rules add` and Settings → Rules
// read `PATH~GLOB`, `PATH=~REGEX`, `PATH^=PREFIX`, `PATH==VALUE` (an empty PATH tests every string).
import type { RuleMatcher, ToolRule } from './permissions.ts';

/** A matcher from its text, or the problem with it. */
export function parseMatcher(text: string): RuleMatcher | { error: string } {
  const ops: Array<[string, (value: string) => Omit<RuleMatcher, 'path'>]> = [
    ['=~', (v) => ({ regex: v })],
    ['^=', (v) => ({ prefix: v })],
    ['==', (v) => ({ equals: jsonOrText(v) })],
    ['~', (v) => ({ glob: v })],
  ];
  let best: { at: number; op: string; make: (value: string) => Omit<RuleMatcher, 'path'> } | undefined;
  for (const [op, make] of ops) {
    const at = text.indexOf(op);
    if (at !== -1 && (!best || at < best.at)) best = { at, op, make };
  }
  if (!best) return { error: `"${text}" has no test: write PATH~GLOB, PATH=~REGEX, PATH^=PREFIX or PATH==VALUE` };
  const path = text.slice(0, best.at).trim();
  return { ...(path ? { path } : {}), ...best.make(text.slice(best.at + best.op.length)) };
}

export function matcherText(m: RuleMatcher): string {
  const path = m.path ?? '';
  if (m.regex !== undefined) return `${path}=~${m.regex}`;
  if (m.prefix !== undefined) return `${path}^=${m.prefix}`;
  if (m.equals !== undefined) return `${path}==${typeof m.equals === 'string' ? m.equals : JSON.stringify(m.equals)}`;
  return `${path}~${m.glob ?? ''}`;
}

/** How a rule reads in lists: "deny * where (any value) ~ ~/.ssh/** — keys stay private". */
export function describeRule(rule: ToolRule): string {
  const where = (rule.where ?? []).map(describeMatcher);
  return `${rule.action} ${rule.tool}${where.length ? ` where ${where.join(' and ')}` : ''}${rule.reason ? ` — ${rule.reason}` : ''}${rule.scope === 'chat' ? ' (chat only)' : ''}`;
}

function describeMatcher(m: RuleMatcher): string {
  const path = m.path ?? '(any value)';
  if (m.regex !== undefined) return `${path} =~ /${m.regex}/`;
  if (m.prefix !== undefined) return `${path} ^= ${m.prefix}`;
  if (m.equals !== undefined) return `${path} == ${JSON.stringify(m.equals)}`;
  return `${path} ~ ${m.glob}`;
}

function jsonOrText(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
