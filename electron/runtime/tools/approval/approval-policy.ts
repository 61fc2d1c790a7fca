// Which approval a tool needs: the user's override wins, then the tool's own permission, then its
// group's default, then the defaults (ask before running a user tool; never ask about results).
import type { ExecutionPolicy, ResultApprovalPolicy, ToolPermission } from '../../../../shared/tools.ts';
import { EXECUTION_POLICIES, RESULT_APPROVAL_POLICIES } from '../../../../shared/tools.ts';

export const DEFAULT_PERMISSION: Required<ToolPermission> = {
  executionPolicy: 'ask-once',
  resultApprovalPolicy: 'never',
};

/** Built-in read-only tools (ReadVar, ListVars) run without asking. */
export const READ_ONLY_PERMISSION: Required<ToolPermission> = {
  executionPolicy: 'auto',
  resultApprovalPolicy: 'never',
};

/** Layers from strongest to weakest; invalid values are ignored, not obeyed. */
export function effectivePermission(...layers: (ToolPermission | undefined)[]): Required<ToolPermission> {
  // Loops, not map/find: this runs on every call.
  let executionPolicy: ExecutionPolicy | undefined;
  let resultApprovalPolicy: ResultApprovalPolicy | undefined;
  for (const layer of layers) {
    const execution = layer?.executionPolicy;
    if (executionPolicy === undefined && EXECUTION_POLICIES.includes(execution as ExecutionPolicy)) executionPolicy = execution;
    const result = layer?.resultApprovalPolicy;
    if (resultApprovalPolicy === undefined && RESULT_APPROVAL_POLICIES.includes(result as ResultApprovalPolicy)) resultApprovalPolicy = result;
  }
  return {
    executionPolicy: executionPolicy ?? DEFAULT_PERMISSION.executionPolicy,
    resultApprovalPolicy: resultApprovalPolicy ?? DEFAULT_PERMISSION.resultApprovalPolicy,
  };
}
