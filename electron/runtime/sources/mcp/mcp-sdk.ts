// The MCP client SDK (about 670 KB bundled, zod and ajv with it) loads when the first server
// starts, not with every runtime that could have servers: browser mode idles without it.
// `loadMcpSdk()` before a connection's first use; `mcpSdk()` in code that runs only after it.
export type McpSdk = typeof import('@modelcontextprotocol/client');

let loading: Promise<McpSdk> | undefined;
let loaded: McpSdk | undefined;

export async function loadMcpSdk(): Promise<McpSdk> {
  loaded ??= await (loading ??= import('@modelcontextprotocol/client'));
  return loaded;
}

/** The SDK, already loaded (a server has started). */
export function mcpSdk(): McpSdk {
  if (!loaded) throw new Error('the MCP SDK was used before loadMcpSdk()');
  return loaded;
}
