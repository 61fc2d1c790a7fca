// A ToolSession's callable tools as MCP `Tool` entries: the name the model sees, the description,
// the JSON Schema, and annotations derived from the policies. `readOnlyHint` is only set for tools
// that declare it (built-in ReadVar/ListVars, or `readOnly`/`readOnlyHint` in a tool's metadata):
// a client may skip its own confirmation for read-only tools, so we never guess it.
import type { ToolDefinition, ToolGroupInfo, ToolInfo } from '../../../../shared/tools.ts';
import { LIST_VARS, READ_VAR, VARS_GROUP } from '../../tools/variables/vars-tools.ts';

/** What the listing reads of a ToolSession: what the model may call, and each tool's info. */
export interface OfferedTools {
  definitions(): ToolDefinition[];
  listGroups(): ToolGroupInfo[];
}

export interface McpToolEntry {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean };
  _meta: Record<string, unknown>;
}

export function declaresReadOnly(tool: ToolInfo): boolean {
  if (tool.groupName === VARS_GROUP && (tool.name === READ_VAR || tool.name === LIST_VARS)) return true;
  const meta = tool.meta ?? {};
  const annotations = (meta.annotations ?? {}) as Record<string, unknown>;
  return meta.readOnly === true || meta.readOnlyHint === true || annotations.readOnlyHint === true;
}

export function mcpToolEntry(tool: ToolInfo): McpToolEntry {
  const { executionPolicy, resultApprovalPolicy } = tool.permission;
  const readOnly = declaresReadOnly(tool);
  const schema = tool.parameters && typeof tool.parameters === 'object' ? tool.parameters : {};
  return {
    name: tool.modelName,
    description: tool.description,
    // MCP requires an object schema at the root; a tool without parameters gets an empty one.
    inputSchema: { ...schema, type: 'object' },
    annotations: {
      title: tool.name,
      ...(readOnly ? { readOnlyHint: true } : { readOnlyHint: false, destructiveHint: executionPolicy === 'ask-always' }),
    },
    _meta: {
      'tooldesk/group': tool.groupName,
      'tooldesk/format': tool.format,
      'tooldesk/executionPolicy': executionPolicy,
      'tooldesk/resultApprovalPolicy': resultApprovalPolicy,
    },
  };
}

/** What a client may call now: the enabled tools of enabled groups, ReadVar/ListVars included. */
export function listMcpTools(tools: OfferedTools): McpToolEntry[] {
  const offered = new Set(tools.definitions().map((d) => d.function.name));
  const byModelName = new Map<string, ToolInfo>();
  for (const group of tools.listGroups()) for (const tool of group.tools) byModelName.set(tool.modelName, tool);
  const out: McpToolEntry[] = [];
  for (const name of offered) {
    const tool = byModelName.get(name);
    if (tool) out.push(mcpToolEntry(tool));
  }
  return out;
}
