// Where a secret may come from when there is no keychain: an environment variable the user
// exports before starting Tooldesk. One rule for the runtime, the CLI and the app's hints.

/** `mcp.github.TOKEN` → `TOOLDESK_SECRET_MCP_GITHUB_TOKEN` (upper case, other characters as `_`). */
export const secretEnvName = (name: string) => `TOOLDESK_SECRET_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
