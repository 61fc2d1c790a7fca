// The executor's decision before it asks anyone: rules first (deny wins over everything, then
// ask, then allow), then the chat's permission level, then the tool's policy. In an unattended
// conversation (a scheduled run) a level only tightens: `trusted` and `read-only-auto` never let
// a call run that the tool's policy (its own, or the user's override) says to ask about.
import type { DecisionSource, PermissionLevel, RuleVerdict } from '../../../../shared/permissions.ts';
import type { ExecutionPolicy } from '../../../../shared/tools.ts';

export type CallDecision =
  | { kind: 'deny'; reason: string; by: DecisionSource; detail: string }
  | { kind: 'allow'; by: DecisionSource; detail: string }
  /** Ask (or not) according to `policy`; `note` is shown on the card and in the CLI question. */
  | { kind: 'policy'; policy: ExecutionPolicy; by: DecisionSource; detail: string; note?: string };

export interface DecideInput {
  verdict: RuleVerdict;
  level: PermissionLevel;
  /** The tool's effective execution policy. */
  policy: ExecutionPolicy;
  readOnly: boolean;
  /** Built-in tools of the session (ReadVar, ListVars): they only read this chat's variables. */
  builtin: boolean;
  /** Why a remembered approval does not hold now (the MCP server's configuration changed …). */
  suspended?: string;
  /** Nobody watches (a scheduled run): levels may not widen what the policy allows. */
  unattended?: boolean;
}

export function decideCall(input: DecideInput): CallDecision {
  const { verdict, level, policy } = input;
  if (verdict.action === 'deny') {
    const label = verdict.label ?? `rule ${verdict.rule}`;
    return { kind: 'deny', by: 'rule', detail: label, reason: `Denied by ${label}${verdict.reason ? `: ${verdict.reason}` : '.'}` };
  }
  if (input.builtin) return { kind: 'policy', policy, by: 'policy', detail: `policy ${policy}` };
  if (level === 'ask') return { kind: 'policy', policy: 'ask-always', by: 'level', detail: 'level ask' };
  if (verdict.action === 'ask') {
    return { kind: 'policy', policy: 'ask-always', by: 'rule', detail: verdict.label ?? `rule ${verdict.rule}`, ...(verdict.reason ? { note: `${verdict.label}: ${verdict.reason}` } : {}) };
  }
  if (verdict.action === 'allow') return { kind: 'allow', by: 'rule', detail: verdict.label ?? `rule ${verdict.rule}` };
  if (level === 'trusted' && !input.unattended) return { kind: 'allow', by: 'level', detail: 'level trusted' };
  if (input.suspended) return { kind: 'policy', policy: 'ask-always', by: 'policy', detail: 'approval suspended', note: input.suspended };
  if (level === 'read-only-auto') {
    if (input.readOnly && (!input.unattended || policy === 'auto')) return { kind: 'allow', by: 'level', detail: 'level read-only-auto' };
    return { kind: 'policy', policy: policy === 'auto' ? 'ask-once' : policy, by: 'level', detail: 'level read-only-auto' };
  }
  return { kind: 'policy', policy, by: 'policy', detail: `policy ${policy}` };
}
