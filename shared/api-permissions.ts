// The API methods of permissions as data (shared/api.ts extends ApiMethods with these).
import type { RuleVerdict, ToolRule } from './permissions.ts';

export interface PermissionApiMethods {
  /**
   * Which rule decides a call of `tool` with `args` (as resolved), like `tooldesk rules test`:
   * `rules` (unsaved edits) or the settings' rules, then the tool set's. Settings → Rules' box.
   */
  testToolRules: { request: { tool: string; args: Record<string, unknown>; rules?: ToolRule[]; toolSet?: string }; response: RuleVerdict };
}

export const PERMISSION_API_METHODS = ['testToolRules'] as const;
