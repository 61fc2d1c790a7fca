// Reads the permission (and timeout) attributes of Python/PowerShell module tools, including the legacy
// sy-f-misc ones real scripts still carry (DESIGN.md, Compatibility notes).
import type { ExecutionPolicy, ResultApprovalPolicy, ToolPermission } from '../../../../shared/tools.ts';
import { EXECUTION_POLICIES, RESULT_APPROVAL_POLICIES } from '../../../../shared/tools.ts';
import type { CachedDiagnostic } from './cache.ts';

/** The hint of every unknown-policy diagnostic. */
export const POLICY_HINT = 'Use executionPolicy auto | ask-once | ask-always and resultApprovalPolicy never | on-error | always.';

const PERMISSION_LEVELS: Record<string, ExecutionPolicy> = { public: 'auto', moderate: 'ask-once', sensitive: 'ask-always' };

export interface ReadPermission {
  permission: ToolPermission;
  /** Values that were present but not understood, for a diagnostic. */
  problems: string[];
}

/**
 * `executionPolicy` / `resultApprovalPolicy` win over the legacy keys: `permissionLevel`
 * (public → auto, moderate → ask-once, sensitive → ask-always), `requireExecutionApproval`
 * (true → ask-always, false → auto) and `requireResultApproval` (true → always, false → never).
 */
export function readPermission(raw: Record<string, unknown> | null | undefined): ReadPermission {
  const permission: ToolPermission = {};
  const problems: string[] = [];
  if (!raw) return { permission, problems };
  const { executionPolicy, resultApprovalPolicy, permissionLevel, requireExecutionApproval, requireResultApproval } = raw;
  if (executionPolicy !== undefined) {
    if (EXECUTION_POLICIES.includes(executionPolicy as ExecutionPolicy)) permission.executionPolicy = executionPolicy as ExecutionPolicy;
    else problems.push(`executionPolicy ${JSON.stringify(executionPolicy)} (expected ${EXECUTION_POLICIES.join(' | ')})`);
  }
  if (permission.executionPolicy === undefined && permissionLevel !== undefined) {
    const mapped = typeof permissionLevel === 'string' ? PERMISSION_LEVELS[permissionLevel] : undefined;
    if (mapped) permission.executionPolicy = mapped;
    else problems.push(`permissionLevel ${JSON.stringify(permissionLevel)} (expected public | moderate | sensitive)`);
  }
  if (permission.executionPolicy === undefined && typeof requireExecutionApproval === 'boolean') {
    permission.executionPolicy = requireExecutionApproval ? 'ask-always' : 'auto';
  }
  if (resultApprovalPolicy !== undefined) {
    if (RESULT_APPROVAL_POLICIES.includes(resultApprovalPolicy as ResultApprovalPolicy)) permission.resultApprovalPolicy = resultApprovalPolicy as ResultApprovalPolicy;
    else problems.push(`resultApprovalPolicy ${JSON.stringify(resultApprovalPolicy)} (expected ${RESULT_APPROVAL_POLICIES.join(' | ')})`);
  }
  if (permission.resultApprovalPolicy === undefined && typeof requireResultApproval === 'boolean') {
    permission.resultApprovalPolicy = requireResultApproval ? 'always' : 'never';
  }
  return { permission, problems };
}

/** `fn.timeout = 60` (seconds) → `{timeoutMs: 60000}`; anything else is reported and ignored. */
export function timeoutOf(value: unknown, owner: string, line: number | undefined, diagnostics: CachedDiagnostic[]): { timeoutMs?: number } {
  if (value === undefined) return {};
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return { timeoutMs: Math.round(value * 1000) };
  diagnostics.push({ severity: 'warning', ...(line ? { line } : {}), code: 'bad-timeout', message: `${owner}: timeout must be a positive number of seconds, got ${JSON.stringify(value)}; the default applies` });
  return {};
}
