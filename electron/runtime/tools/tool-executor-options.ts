// What a ToolExecutor is made with (one per conversation: its session, variables, approver,
// bounds, rules and level) and what one call may carry (its id, signal, progress listener, chat).
import type { ToolUpdate } from '../../../shared/tools.ts';
import type { PermissionLevel } from '../../../shared/permissions.ts';
import type { CallGuard } from './rules/call-guard.ts';
import type { ApprovalCallback, PermissionStore, ToolContext } from './types.ts';
import type { VariableSystem } from './variables/variable-system.ts';
import type { SavedResult } from './result/saved-result.ts';

export interface ToolExecutorOptions {
  sessionId: string;
  variables?: VariableSystem;
  approve?: ApprovalCallback;
  /** The user's per-tool overrides; "always allow" writes here. */
  permissions?: PermissionStore;
  /** Default truncation limit in characters (8000). */
  truncateChars?: number;
  /** Default timeout of a tool run, ms (30 s); a tool's own timeoutMs wins. */
  toolTimeoutMs?: number;
  /** How long a timed-out or aborted tool may take to stop before its result is given anyway, ms (2 s). */
  stopGraceMs?: number;
  /** Bound on what $VAR_REF expansion may produce per call, characters (16 Mi). */
  maxExpandedChars?: number;
  /** Where swallowed errors (onSession hooks, rulePrompt functions, the store) are reported. */
  log?: (message: string) => void;
  /** Rules on the resolved arguments, checked before the policy; hears how each call ended (audit). */
  guard?: CallGuard;
  /** The chat's permission level (default `default`); setPermissionLevel changes it for the next call. */
  permissionLevel?: PermissionLevel;
}

export interface ExecuteOptions {
  /** The model's tool-call id; names the cached variables. Generated when absent. */
  callId?: string;
  signal?: AbortSignal;
  onUpdate?: (update: ToolUpdate) => void;
  /** The chat the call belongs to (see ToolContext.conversation). */
  conversation?: ToolContext['conversation'];
  /** Ask the user first whatever the policy, memory or an allow rule say (a call cut off by a restart), with this note; a deny still wins. */
  askAgain?: string;
  workingDir?: string; // see ToolContext.workingDir
  /** The call ran before a restart and its result waited for approval: ask about it again, never run it (saved-result.ts). */
  savedResult?: SavedResult;
}
