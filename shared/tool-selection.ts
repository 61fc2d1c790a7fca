// Which tools one chat offers the model. Stored with the session; a chat without one follows the
// global switches of Settings (the defaults for new chats).

export interface ChatToolSelection {
  /** Real tool names offered in this chat. */
  tools: string[];
  /** Tools always sent in full even when the definitions exceed the budget (a subset of `tools`). */
  pinned: string[];
}

/** The built-in tool that searches tool definitions when they exceed the budget. */
export const FIND_TOOLS = 'FindTools';

/** A tool that only reads (built-ins, or marked so by its author or MCP annotations). */
export function isReadOnlyTool(tool: { name: string; format: string; meta?: Record<string, unknown> }): boolean {
  if (tool.format === 'builtin') return tool.name === 'ReadVar' || tool.name === 'ListVars' || tool.name === FIND_TOOLS;
  const meta = tool.meta ?? {};
  const annotations = (meta.annotations ?? {}) as Record<string, unknown>;
  return meta.readOnly === true || meta.readOnlyHint === true || annotations.readOnlyHint === true;
}
