// Who may call an MCP tool, as its `_meta.ui.visibility` says (read by sources/mcp/mapping/tool-ui-meta.ts):
// the model, apps, or both.
import type { ToolUiMeta } from '../sources/mcp/mapping/tool-ui-meta.ts';

/** A tool's meta (as the executor holds it) says only apps may call it. */
export function appOnly(meta: Record<string, unknown> | undefined): boolean {
  const ui = (meta?.mcp as { ui?: ToolUiMeta } | undefined)?.ui;
  return Array.isArray(ui?.visibility) && !ui.visibility.includes('model');
}
export const visibleToApps = (ui: ToolUiMeta): boolean => ui.visibility.includes('app');

/**
 * Whether the app of `appServer` may call the tool: a tool of the same server that lists "app".
 * Returns the refusal written for the app (and the user), or null.
 */
export function appCallRefusal(appServer: string | undefined, tool: { server?: string; name: string; ui?: ToolUiMeta } | undefined): string | null {
  if (!tool) return 'no such tool';
  if (!appServer || tool.server !== appServer) return `"${tool.name}" is not a tool of this app's server`;
  if (!visibleToApps(tool.ui ?? { visibility: ['model', 'app'] })) return `"${tool.name}" is not visible to apps (its _meta.ui.visibility leaves out "app")`;
  return null;
}
