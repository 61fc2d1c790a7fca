// A tool set narrows what is switched on: a group stays on when the set names it (all its switched-on
// tools) or one of its tools; a tool stays on when its group or itself is named. Nothing is switched
// on that was off, so a chat's own selection, applied before, narrows further. The built-in `vars`
// group is never touched.
import type { ToolSet } from '../../../../shared/permissions.ts';
import type { ToolExecutor } from '../tool-executor.ts';

export function applyToolSet(executor: ToolExecutor, set: ToolSet): void {
  const groups = new Set(set.groups ?? []);
  const tools = new Set(set.tools ?? []);
  for (const group of executor.listGroups()) {
    if (group.builtin) continue;
    const whole = groups.has(group.name);
    const named = group.tools.filter((t) => whole || tools.has(t.name) || tools.has(t.modelName));
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
  const groups = new Set(set.groups ?? []);
  const tools = new Set(set.tools ?? []);
  for (const group of executor.listGroups()) {
    if (group.builtin) continue;
    const whole = groups.has(group.name);
    const on = group.tools.filter((t) => whole || tools.has(t.name) || tools.has(t.modelName));
    executor.toggleGroupEnabled(group.name, on.length > 0);
    for (const tool of group.tools) executor.setToolEnabled(tool.name, on.includes(tool));
  }
}
