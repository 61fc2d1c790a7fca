// A tool set narrows what is switched on: a group stays on when the set names it (all its switched-on
// tools) or one of its tools; a tool stays on when its group or itself is named. Nothing is switched
// on that was off, so a chat's own selection, applied before, narrows further. The built-in `vars`
// group is never touched.
import type { ToolSet } from '../../../../shared/permissions.ts';
import type { ToolExecutor } from '../tool-executor.ts';

/** Whether `set` names `tool` of `groupName` (the group itself, or the tool by either name). */
export function toolSetHas(set: ToolSet, groupName: string, tool: { name: string; modelName: string }): boolean {
  return (set.groups ?? []).includes(groupName) || (set.tools ?? []).includes(tool.name) || (set.tools ?? []).includes(tool.modelName);
}

export function applyToolSet(executor: ToolExecutor, set: ToolSet): void {
  // A call of a tool left out is refused as outside the set, not as switched off.
  executor.setToolSetScope({ name: set.name, has: (groupName, tool) => toolSetHas(set, groupName, tool) });
  for (const group of executor.listGroups()) {
    if (group.builtin) continue;
    const named = group.tools.filter((t) => toolSetHas(set, group.name, t));
    if (named.length === 0) {
      executor.toggleGroupEnabled(group.name, false);
      continue;
    }
    for (const tool of group.tools) if (!named.includes(tool)) executor.setToolEnabled(tool.name, false);
  }
}

/** Names in the set that match no group or tool now (shown as a warning, never fatal). */
export function unknownToolSetItems(set: ToolSet, known: { groups: string[]; tools: string[] }): string[] {
  const groups = new Set(known.groups);
  const tools = new Set(known.tools);
  return [...(set.groups ?? []).filter((g) => !groups.has(g)), ...(set.tools ?? []).filter((t) => !tools.has(t))];
}

/** `mcp serve --toolset`: exactly the set's groups and tools are on, whatever the global switches say. */
export function enableExactly(executor: ToolExecutor, set: ToolSet): void {
  executor.setToolSetScope({ name: set.name, has: (groupName, tool) => toolSetHas(set, groupName, tool) });
  for (const group of executor.listGroups()) {
    if (group.builtin) continue;
    const on = group.tools.filter((t) => toolSetHas(set, group.name, t));
    executor.toggleGroupEnabled(group.name, on.length > 0);
    for (const tool of group.tools) executor.setToolEnabled(tool.name, on.includes(tool));
  }
}
