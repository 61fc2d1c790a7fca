// The bearer token of `mcp serve --http`: generated once and kept in the OS keychain, so host
// configs keep working across restarts. Without a keychain the token lives for this run only
// (and the caller says so); it never goes to the settings file or a log.
import { createAccessToken } from '../../base/access-token.ts';
import type { SecretStore } from '../../store/secret-store.ts';

export const MCP_TOKEN_SECRET = 'TOOLDESK_MCP_HTTP_TOKEN';

export interface HttpToken {
  token: string;
  /** True when it was generated now (print it with the host config, once). */
  created: boolean;
  where: 'keychain' | 'this run only';
  /** Why the keychain could not be used. */
  problem?: string;
}

export async function mcpHttpToken(secrets: SecretStore, options: { rotate?: boolean } = {}): Promise<HttpToken> {
  try {
    const existing = options.rotate ? null : await secrets.get(MCP_TOKEN_SECRET);
    if (existing) return { token: existing, created: false, where: 'keychain' };
    const token = createAccessToken();
    await secrets.set(MCP_TOKEN_SECRET, token);
    return { token, created: true, where: 'keychain' };
  } catch (error) {
    return { token: createAccessToken(), created: true, where: 'this run only', problem: (error as Error).message };
  }
}
