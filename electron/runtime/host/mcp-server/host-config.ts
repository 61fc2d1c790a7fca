// Ready-to-paste configurations for MCP hosts, printed by `mcp serve --http` and shown in the README.

export interface HostConfigInput {
  url: string;
  /** Undefined with --no-auth. */
  token: string | undefined;
}

/** Cursor's `~/.cursor/mcp.json` and Claude Desktop-style `mcpServers` entries over HTTP. */
export function httpHostConfig({ url, token }: HostConfigInput): string {
  const headers = token ? { headers: { Authorization: `Bearer ${token}` } } : {};
  return JSON.stringify({ mcpServers: { tooldesk: { url, ...headers } } }, null, 2);
}

/** VS Code's `.vscode/mcp.json`. */
export function vscodeHostConfig({ url, token }: HostConfigInput): string {
  const headers = token ? { headers: { Authorization: `Bearer ${token}` } } : {};
  return JSON.stringify({ servers: { tooldesk: { type: 'http', url, ...headers } } }, null, 2);
}
