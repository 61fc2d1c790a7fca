// A chat's own choice of tools (the "Tools" button): applied on top of the global switches, which
// stay the defaults for chats that never chose. The executor's enable state then is the choice,
// so the model is offered only the selected tools and a call to another is refused.
import type { ChatToolSelection } from '../../../shared/tool-selection.ts';
import type { ToolExecutor } from './tool-executor.ts';

/** Groups with a selected tool are on; every tool is on exactly when selected. */
export function applyToolSelection(executor: ToolExecutor, selection: ChatToolSelection): void {
  const selected = new Set(selection.tools);
  for (const group of executor.listGroups()) {
    executor.toggleGroupEnabled(group.name, group.tools.some((t) => selected.has(t.name)));
    for (const tool of group.tools) executor.setToolEnabled(tool.name, selected.has(tool.name));
  }
}

/** Why the chat refuses a call to `name`, for the model; undefined when it is selected or unknown. */
export function selectionRefusal(executor: ToolExecutor, selection: ChatToolSelection | null, name: string): string | undefined {
  if (!selection) return undefined;
  const tool = executor.getTool(name);
  if (!tool || executor.isUnlisted(name)) return undefined;
  const real = tool.definition.function.name;
  if (selection.tools.includes(real)) return undefined;
  return (
    `Tool ${name} is not selected for this chat, so it cannot be called. ` +
    'If you need it, ask the user to allow it: the "Tools" button in the message box chooses the tools this chat may use.'
  );
}

/** A clean copy: strings only, no duplicates, pinned ⊆ tools. Null for anything that is not a selection. */
export function normalizeSelection(value: unknown): ChatToolSelection | null {
  if (!value || typeof value !== 'object') return null;
  const raw = value as { tools?: unknown; pinned?: unknown };
  if (!Array.isArray(raw.tools)) return null;
  const tools = [...new Set(raw.tools.filter((t): t is string => typeof t === 'string' && t.length > 0))];
  const inTools = new Set(tools);
  const pinned = Array.isArray(raw.pinned) ? [...new Set(raw.pinned.filter((t): t is string => typeof t === 'string' && inTools.has(t)))] : [];
  return { tools, pinned };
}
