// A connected server's tools as a Tooldesk tool group: callable names valid for every provider,
// the server's inputSchema as parameters, calls through the connection. Annotations become
// default policies only for servers the user trusts; the user's own overrides always win.
import type { ToolPermission } from '../../../../../shared/tools.ts';
import type { Tool, ToolGroup } from '../../../tools/types.ts';
import type { Tool as McpTool } from '@modelcontextprotocol/client';
import type { KnownTools } from './known-tools.ts';
import type { McpConnection } from '../connection/server-connection.ts';
import { switchedOffMessage } from '../config/server-config.ts';
import { callableName } from './tool-names.ts';
import { toolUiMeta } from './tool-ui-meta.ts';

/** Descriptions are shown in full in the Tools panel (meta); the model gets a bounded one. */
const MAX_DESCRIPTION = 4000;

export function policyFromAnnotations(annotations: McpTool['annotations']): ToolPermission {
  if (annotations?.readOnlyHint === true) return { executionPolicy: 'auto' };
  if (annotations?.destructiveHint === false) return { executionPolicy: 'ask-once' };
  return { executionPolicy: 'ask-always' };
}

/**
 * `taken`: callable names other groups already use; this group's names are added to it.
 * `switchedOff`: the server is off; its group shows the tools it last listed (if any), each
 * marked off, and a call says how to switch it on instead of starting it. `relativeTo`: where the
 * server resolves relative paths (server-roots.ts serverRelativeTo; none known: the rules cannot
 * resolve them).
 */
export function serverGroup(connection: McpConnection, taken: Set<string>, switchedOff?: Partial<KnownTools>, relativeTo: readonly string[] = []): ToolGroup {
  const server = connection.server;
  const listed = switchedOff ? (switchedOff.tools ?? []) : connection.tools();
  const tools: Tool[] = listed.map((mcp) => {
    const name = callableName(server.name, mcp.name, taken);
    taken.add(name);
    const description = mcp.description ?? mcp.title ?? '';
    const ui = toolUiMeta(mcp._meta);
    const tool: Tool = {
      definition: {
        type: 'function',
        function: {
          name,
          description: description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION)}…` : description,
          parameters: (mcp.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
        },
      },
      source: { format: 'mcp', file: `mcp:${server.name}` },
      relativeTo,
      timeoutMs: connection.callDeadlineMs(mcp.name),
      meta: {
        mcp: {
          server: server.name,
          tool: mcp.name,
          ...(mcp.title ? { title: mcp.title } : {}),
          description,
          ...(mcp.annotations ? { annotations: mcp.annotations } : {}),
          ...(mcp.icons ? { icons: mcp.icons } : {}),
          ...(mcp.outputSchema ? { outputSchema: mcp.outputSchema } : {}),
          trusted: server.trust,
          ...(ui.resourceUri || ui.visibility.length < 2 ? { ui } : {}),
          ...(switchedOff ? { switchedOff: true, ...(switchedOff.listedAt ? { listedAt: switchedOff.listedAt } : {}) } : {}),
        },
      },
      // A tool with an app: its result names the resource, so the chat shows the app (also after a reload).
      execute: switchedOff
        ? async () => ({ status: 'ERROR', error: switchedOffMessage(server.name) })
        : ui.resourceUri
          ? async (args, ctx) => ({ ...(await connection.callTool(mcp.name, args, ctx)), app: { server: server.name, uri: ui.resourceUri! } })
          : (args, ctx) => connection.callTool(mcp.name, args, ctx),
    };
    if (server.trust) tool.permission = policyFromAnnotations(mcp.annotations);
    return tool;
  });
  return { name: server.name, tools, source: { format: 'mcp', file: `mcp:${server.name}` } };
}
