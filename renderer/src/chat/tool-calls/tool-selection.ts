// The per-chat tool choice as the panel edits it. Pure helpers over the tools list.
import type { ChatToolSelection } from '../../../../shared/tool-selection.ts';
import type { ToolGroupInfo, ToolInfo } from '../../../../shared/tools.ts';

const RIDE_ALONG = new Set(['ReadVar', 'ListVars']);

/** What a chat without its own choice offers: the global switches (ReadVar/ListVars ride along with any group). */
export function globalSelection(groups: ToolGroupInfo[]): ChatToolSelection {
  const anyGroup = groups.some((g) => g.enabled && !g.builtin);
  const tools = groups.flatMap((g) =>
    g.tools.filter((t) => t.enabled && (g.enabled || (anyGroup && RIDE_ALONG.has(t.name)))).map((t) => t.name),
  );
  return { tools, pinned: [] };
}

export function effectiveSelection(groups: ToolGroupInfo[], own: ChatToolSelection | null): ChatToolSelection {
  return own ?? globalSelection(groups);
}

/** The tools the chat offers, as listed (for `/` suggestions). */
export function selectedTools(groups: ToolGroupInfo[], own: ChatToolSelection | null): ToolInfo[] {
  const chosen = new Set(effectiveSelection(groups, own).tools);
  return groups.flatMap((g) => g.tools.filter((t) => chosen.has(t.name)));
}

/** Turns `names` on or off; pins of tools turned off go too. */
export function toggleTools(selection: ChatToolSelection, names: string[], on: boolean): ChatToolSelection {
  const tools = new Set(selection.tools);
  for (const name of names) {
    if (on) tools.add(name);
    else tools.delete(name);
  }
  return { tools: [...tools], pinned: selection.pinned.filter((p) => tools.has(p)) };
}

/** Pinning a tool selects it too. */
export function togglePin(selection: ChatToolSelection, name: string, pinned: boolean): ChatToolSelection {
  const withTool = pinned ? toggleTools(selection, [name], true) : selection;
  const pins = new Set(withTool.pinned);
  if (pinned) pins.add(name);
  else pins.delete(name);
  return { tools: withTool.tools, pinned: [...pins] };
}

export function matchesSearch(tool: ToolInfo, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return q.split(/\s+/).every((w) => tool.name.toLowerCase().includes(w) || tool.groupName.toLowerCase().includes(w) || tool.description.toLowerCase().includes(w));
}
