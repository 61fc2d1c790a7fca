// What `mcp serve` needs from the rest of the runtime: the live tool groups (hot reload), the
// settings that decide which groups are on, and where "always allow" writes. The CLI builds it
// from createRuntime's tools (every source: files on disk, MCP servers).
import type { Settings } from '../../../../shared/settings.ts';
import type { ToolsChange } from '../../tools/tools-change.ts';
import type { PermissionStore, ToolGroup } from '../../tools/types.ts';
import type { CallGuard } from '../../tools/rules/call-guard.ts';

export type { ToolsChange };

export interface McpToolFeed {
  groups(): ToolGroup[];
  /** Contract: the listener runs after groups() changed; returns the unsubscribe function. */
  onToolsChanged(listener: (change: ToolsChange) => void): () => void;
  settings(): Settings;
  /** Contract: runs after the settings changed (another process included); returns unsubscribe. */
  onSettingsChanged(listener: (settings: Settings) => void): () => void;
  permissions: PermissionStore;
  /** `--group G`: only these groups (still only when enabled in Tooldesk). Empty = every enabled group. */
  onlyGroups: string[];
  /** Rules (and the audit log) every call goes through. */
  guard?: CallGuard;
  /** `--toolset NAME`: exactly that set's tools, its rules and level. */
  toolSet?: string;
}
