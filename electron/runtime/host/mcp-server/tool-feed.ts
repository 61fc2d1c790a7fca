// What `mcp serve` needs from the rest of the runtime: a ToolSession per connection (the live
// tool groups with hot reload, the settings' switches, where "always allow" writes) and the
// settings for the limits. The CLI builds it from createRuntime (every source: files on disk,
// MCP servers).
import type { Settings } from '../../../../shared/settings.ts';
import type { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import type { ToolSession, ToolSessionOptions } from '../../tools/tool-session.ts';

export interface McpToolFeed {
  /** Opens one connection's ToolSession; the connection closes it. */
  toolSession(options: ToolSessionOptions): ToolSession;
  settings(): Settings;
  /** `--group G`: only these groups (still only when enabled in Tooldesk). Empty = every enabled group. */
  onlyGroups: string[];
  /** `--toolset NAME`: exactly that set's tools, its rules and level. */
  toolSet?: string;
  /** Tooldesk's enabled skills, served with the skills extension (serve-skills.ts). */
  skills?: SkillsExtension;
  /** Contract: resolves (never rejects) once the MCP servers starting now are ready or past their bound. */
  ready?: () => Promise<void>;
}
