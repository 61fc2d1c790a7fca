// Which configured MCP servers a tool name can belong to: a server's tools are called
// `SERVER__tool` (tool-names.ts), so `tools run NAME` needs only the server whose prefix NAME
// carries — and none for a file tool. Two servers can share a prefix after cleaning (`a.b` and
// `a_b`): both are returned.
import { callablePrefix } from '../mapping/tool-names.ts';

export function owningServers(serverNames: readonly string[], toolName: string): string[] {
  return serverNames.filter((server) => toolName.startsWith(callablePrefix(server)) && toolName.length > callablePrefix(server).length);
}
