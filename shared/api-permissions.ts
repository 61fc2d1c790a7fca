// The API methods of permissions as data (shared/api.ts extends ApiMethods with these).
import type { AuditEntry, RuleVerdict, ToolRule } from './permissions.ts';

export interface PermissionApiMethods {
  /**
   * Which rule decides a call of `tool` with `args` (as resolved), like `tooldesk rules test`:
   * `rules` (unsaved edits) or the settings' rules, then the tool set's. Settings → Rules' box.
   */
  testToolRules: { request: { tool: string; args: Record<string, unknown>; rules?: ToolRule[]; toolSet?: string }; response: RuleVerdict };
  /** The audit log's newest entries (at most `limit`, default 200), filtered; oldest first. */
  listAudit: { request: { tool?: string; decision?: AuditEntry['decision']; since?: string; limit?: number }; response: AuditEntry[] };
}

export const PERMISSION_API_METHODS = ['testToolRules', 'listAudit'] as const;
