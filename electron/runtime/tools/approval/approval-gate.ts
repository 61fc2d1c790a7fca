// The approval part of execute(): which policy applies, what the session already decided, asking
// the user, and remembering the answer the way the user chose.
//
// Execution: `auto` runs; `ask-once` asks once per tool + canonical arguments (any approval is
// remembered); `ask-always` asks every time unless the user chose "approve for this session" for
// those arguments. "Always allow" writes `executionPolicy: 'auto'` through the PermissionStore
// (and holds for this session even without one). A rejection is remembered only when the user
// says so (`remember: 'session'`). Results: `never`, `on-error` (ask about errors), `always`.
import type { DecisionSource, ToolRule } from '../../../../shared/permissions.ts';
import type { VarRefUse } from '../../../../shared/tool-inspection.ts';
import type {
  ApprovalDecision,
  ApprovalRequest,
  ApprovalType,
  ExecutionPolicy,
  ResultApprovalPolicy,
  ToolExecuteStatus,
  ToolPermission,
} from '../../../../shared/tools.ts';
import { ApprovalMemory, approvalKey, type ApprovalMemoryData } from './approval-memory.ts';
import { effectivePermission } from './approval-policy.ts';
import { requestApproval } from './request-approval.ts';
import { errorText } from '../run-tool.ts';
import type { ApprovalCallback, PermissionStore, Tool, ToolGroup } from '../types.ts';

type Args = Record<string, unknown>;

/** Who is asking: enough to build a request and key the memory. */
export interface ApprovalSubject {
  toolName: string;
  groupName: string;
  callId: string;
  args: Args;
  /** The `$VAR_REF`s the arguments used (shown on the card). */
  varRefs?: VarRefUse[];
  /** Why it asks although it would not have before (shown on the card). */
  note?: string;
  /** What the tool says about the call (Tool.approvalDetail), shown on the card. */
  detail?: string[];
  /** "Always" is bound to content by the call guard (Tool.approvalBinding): the gate neither sets the policy nor remembers it. */
  boundAlways?: boolean;
}

/**
 * `args`: the user edited the arguments on the card; the call must run with these (unvalidated).
 * `by`: who decided (the audit log's words).
 */
export type GateOutcome = { allowed: true; args?: Args; by: DecisionSource } | { allowed: false; reason: string; by: DecisionSource };

/** A rejection is the user's only when someone was asked. */
const rejectedBy = (decision: ApprovalDecision | undefined): DecisionSource => (decision && !decision.unasked ? 'user-reject' : 'no-approver');

const USER_DECISION: Partial<Record<ApprovalDecision['decision'], DecisionSource>> = { once: 'user-once', session: 'user-session', always: 'user-always' };

export interface ApprovalGateOptions {
  sessionId: string;
  approve?: ApprovalCallback;
  permissions?: PermissionStore;
  /** "Always allow → calls like this": keeps the rule. Contract: may throw (logged). */
  addRule?: (rule: ToolRule) => void;
  log: (message: string) => void;
}

/** What the tool adds to its card (Tool.approvalDetail) and whether its "always" is bound to content. */
export function withToolDetail(subject: ApprovalSubject, tool: Tool): ApprovalSubject {
  if (tool.approvalBinding) subject.boundAlways = true;
  try {
    const detail = tool.approvalDetail?.(subject.args);
    if (detail?.length) subject.detail = detail;
  } catch {
    // a card without the detail is still a card
  }
  return subject;
}

/** Whether a result with `status` is shown to the user before the model gets it. */
export function resultAsks(policy: ResultApprovalPolicy, status: ToolExecuteStatus): boolean {
  return policy === 'always' || (policy === 'on-error' && status === 'ERROR');
}

export class ApprovalGate {
  private readonly memory = new ApprovalMemory();
  /** Decisions that change a tool's policy for this session ("always", result "session"). */
  private readonly sessionOverrides = new Map<string, ToolPermission>();
  /** ask-once questions being asked now: parallel identical calls share one card. */
  private readonly pending = new Map<string, Promise<GateOutcome>>();
  private approve: ApprovalCallback | undefined;
  private counter = 0;

  constructor(private readonly options: ApprovalGateOptions) {
    this.approve = options.approve;
  }

  setCallback(callback: ApprovalCallback | undefined): void {
    this.approve = callback;
  }

  exportMemory(): ApprovalMemoryData {
    return this.memory.export();
  }

  importMemory(data: unknown): number {
    return this.memory.import(data);
  }

  /** User override (settings) → this session's "always" → the tool's own → its group's → default. */
  permissionOf(toolName: string, tool: Tool, group: ToolGroup | undefined): Required<ToolPermission> {
    let user: ToolPermission | undefined;
    try {
      user = this.options.permissions?.get(toolName);
    } catch (error) {
      this.options.log(`Reading the permission of ${toolName} failed: ${errorText(error)}`);
    }
    return effectivePermission(user, this.sessionOverrides.get(toolName), tool.permission, group?.defaultPermission);
  }

  async execution(subject: ApprovalSubject, policy: ExecutionPolicy, signal: AbortSignal): Promise<GateOutcome> {
    if (policy === 'auto') return { allowed: true, by: 'policy' };
    const { toolName, args } = subject;
    const remembered = this.memory.recall('execution', toolName, args);
    if (remembered?.decision === 'rejected') {
      return { allowed: false, reason: `already rejected in this session${remembered.reason ? `: ${remembered.reason}` : '.'}`, by: 'remembered' };
    }
    if (remembered?.decision === 'approved' && (policy === 'ask-once' || remembered.scope === 'session')) {
      return { allowed: true, by: 'remembered' };
    }
    if (policy !== 'ask-once') return this.ask(subject, policy, signal);
    const key = approvalKey('execution', toolName, args);
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const asking = this.ask(subject, policy, signal);
    this.pending.set(key, asking);
    try {
      return await asking;
    } finally {
      this.pending.delete(key);
    }
  }

  /** Asks whatever the policy and the memory say (a call that may have run in part already). */
  askAgain(subject: ApprovalSubject, signal: AbortSignal): Promise<GateOutcome> {
    return this.ask(subject, 'ask-always', signal);
  }

  private async ask(subject: ApprovalSubject, policy: ExecutionPolicy, signal: AbortSignal): Promise<GateOutcome> {
    const { toolName, args } = subject;
    const outcome = await requestApproval(this.approve, this.request('execution', subject, policy), signal);
    if (!outcome.approved) {
      if (outcome.decision?.remember === 'session') {
        this.memory.remember('execution', toolName, args, { decision: 'rejected', reason: outcome.reason });
      }
      return { allowed: false, reason: outcome.reason, by: rejectedBy(outcome.decision) };
    }
    const by = USER_DECISION[outcome.decision.decision] ?? 'user-once';
    const edited = outcome.decision.args;
    if (edited && typeof edited === 'object' && !Array.isArray(edited)) {
      // The approval is for what the user wrote, not for what the model asked: remember that.
      this.rememberExecution({ ...subject, args: edited }, policy, outcome.decision);
      return { allowed: true, args: edited, by };
    }
    this.rememberExecution(subject, policy, outcome.decision);
    return { allowed: true, by };
  }

  async result(
    subject: ApprovalSubject,
    policy: ResultApprovalPolicy,
    result: { status: ToolExecuteStatus; text: string },
    signal: AbortSignal,
  ): Promise<GateOutcome> {
    if (!resultAsks(policy, result.status)) return { allowed: true, by: 'policy' };
    const request = this.request('result', subject, policy);
    request.result = result;
    const outcome = await requestApproval(this.approve, request, signal);
    if (!outcome.approved) return { allowed: false, reason: outcome.reason, by: rejectedBy(outcome.decision) };
    if (outcome.decision.decision === 'always') this.override(subject.toolName, { resultApprovalPolicy: 'never' }, true);
    if (outcome.decision.decision === 'session') this.override(subject.toolName, { resultApprovalPolicy: 'never' }, false);
    return { allowed: true, by: USER_DECISION[outcome.decision.decision] ?? 'user-once' };
  }

  private rememberExecution(subject: ApprovalSubject, policy: ExecutionPolicy, decision: ApprovalDecision): void {
    const { toolName, args } = subject;
    if (decision.decision === 'always' && decision.rule) this.keepRule(subject, decision.rule);
    else if (decision.decision === 'always' && subject.boundAlways) return;
    else if (decision.decision === 'always') this.override(toolName, { executionPolicy: 'auto' }, true);
    else if (decision.decision === 'session') this.memory.remember('execution', toolName, args, { decision: 'approved', scope: 'session' });
    else if (policy === 'ask-once') this.memory.remember('execution', toolName, args, { decision: 'approved', scope: 'once' });
  }

  /** Calls like this one run from now on: the rule, and this call's arguments for the session. */
  private keepRule(subject: ApprovalSubject, rule: ToolRule): void {
    this.memory.remember('execution', subject.toolName, subject.args, { decision: 'approved', scope: 'session' });
    try {
      this.options.addRule?.(rule);
    } catch (error) {
      this.options.log(`Keeping the rule for ${subject.toolName} failed: ${errorText(error)}`);
    }
  }

  private override(toolName: string, patch: ToolPermission, persist: boolean): void {
    this.sessionOverrides.set(toolName, { ...this.sessionOverrides.get(toolName), ...patch });
    const store = this.options.permissions;
    if (!persist || !store) return;
    try {
      store.set(toolName, { ...store.get(toolName), ...patch });
    } catch (error) {
      this.options.log(`Saving the permission of ${toolName} failed: ${errorText(error)}`);
    }
  }

  private request(type: ApprovalType, subject: ApprovalSubject, policy: ExecutionPolicy | ResultApprovalPolicy): ApprovalRequest {
    return {
      id: `${this.options.sessionId}:${subject.callId}:${type}:${++this.counter}`,
      type,
      sessionId: this.options.sessionId,
      callId: subject.callId,
      toolName: subject.toolName,
      groupName: subject.groupName,
      args: subject.args,
      policy,
      ...(subject.varRefs?.length ? { varRefs: subject.varRefs } : {}),
      ...(subject.note ? { note: subject.note } : {}),
      ...(subject.detail?.length ? { detail: subject.detail } : {}),
    };
  }
}
