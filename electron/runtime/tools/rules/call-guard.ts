// The executor's one hook for permissions as data (see tool-executor.ts, between argument
// validation and the approval gate). The executor hands it the call with resolved, validated
// arguments; it answers deny / allow / ask-by-policy, and hears how the call ended (audit log).
import type { DecisionSource, PermissionLevel, ToolRule } from '../../../../shared/permissions.ts';
import type { ExecutionPolicy } from '../../../../shared/tools.ts';
import type { Tool } from '../types.ts';
import { decideCall, type CallDecision } from './decide-call.ts';

export interface GuardedCall {
  sessionId: string;
  callId: string;
  toolName: string;
  modelName: string;
  groupName: string;
  tool: Tool;
  builtin: boolean;
  /** Resolved ($VAR_REF expanded) and validated. */
  args: Record<string, unknown>;
  /** The tool's effective execution policy (user override → tool → group → default). */
  policy: ExecutionPolicy;
  level: PermissionLevel;
}

export interface GuardedOutcome {
  decision: 'allowed' | 'denied' | 'rejected';
  by: DecisionSource;
  detail?: string;
  status?: string;
  durationMs?: number;
}

export interface CallGuard {
  /** Contract: never throws (the executor treats a throw as a deny naming it). */
  decide(call: GuardedCall): CallDecision;
  /** Contract: never throws. Once per decided call, when it is over (or refused). */
  settled?(call: GuardedCall, outcome: GuardedOutcome): void;
  /** "Always allow → calls like this" from an approval card. Contract: throws when the rule is refused. */
  addRule?(rule: ToolRule): void;
}

/** The guard's decision; without a guard (or when it throws) the level and the policy decide, and a throw denies. */
export function decideWithGuard(guard: CallGuard | undefined, call: GuardedCall): CallDecision {
  if (!guard) return decideCall({ verdict: { action: 'none' }, level: call.level, policy: call.policy, readOnly: false, builtin: call.builtin });
  try {
    return guard.decide(call);
  } catch (error) {
    const reason = `The permission rules could not be checked (${(error as Error)?.message ?? String(error)}), so the call was not run.`;
    return { kind: 'deny', reason, by: 'rule', detail: 'rules failed' };
  }
}

/** What execute() learns about a call's permission decision, for the guard's `settled`. */
export interface DecidedCall {
  call?: GuardedCall;
  outcome?: GuardedOutcome;
}

/** Tells the guard how a decided call ended. Never throws. */
export function settleWithGuard(guard: CallGuard | undefined, decided: DecidedCall, result: { status: string; durationMs?: number }, log: (message: string) => void): void {
  if (!guard?.settled || !decided.call || !decided.outcome) return;
  try {
    const { decision, by, detail } = decided.outcome;
    // One literal of one shape (no spreads): this runs after every call.
    guard.settled(decided.call, { decision, by, detail, status: result.status, durationMs: result.durationMs });
  } catch (error) {
    log(`Recording the decision on ${decided.call.toolName} failed: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** The audit outcome of the gate's answer (or of the rules' deny). */
export function outcomeOf(decision: CallDecision, gate: { allowed: boolean; by: DecisionSource }): GuardedOutcome {
  if (decision.kind === 'deny') return { decision: 'denied', by: 'rule', detail: decision.detail };
  if (!gate.allowed) return { decision: 'rejected', by: gate.by };
  return { decision: 'allowed', by: gate.by, ...(gate.by === 'policy' || decision.kind === 'allow' || gate.by === 'level' || gate.by === 'rule' ? { detail: decision.detail } : {}) };
}
