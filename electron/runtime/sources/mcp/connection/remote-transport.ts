// A remote (HTTP or SSE) server's transport: its header secrets resolved and kept out of its log,
// a machine grant or the interactive OAuth flow as its auth provider, every response size-capped.
import type { Transport } from '@modelcontextprotocol/client';
import { cappedFetch } from './capped-fetch.ts';
import { machineGrantProvider, type MachineGrantProvider } from './machine-grants.ts';
import { mcpSdk } from '../mcp-sdk.ts';
import type { McpOAuthFlow } from './oauth-flow.ts';
import { prefixed, resolveEnvRefs, unprefixed } from '../config/config-variables.ts';
import { resolveSecretRefs } from '../config/secret-refs.ts';
import type { HttpServer } from '../config/server-config.ts';
import type { ServerLog } from './server-log.ts';
import type { McpClientDeps } from '../types.ts';

/** What a connection keeps between starts of a remote server. */
export interface RemoteAuthState {
  /** The OAuth flow made at an earlier start (reused: its tokens and registration). */
  oauth: McpOAuthFlow | undefined;
  /** A 2025-03-26 server whose AS metadata names another issuer (see isLegacyAuthServer). */
  legacyIssuer: boolean;
}

/** The transport, and the OAuth flow it signs in with (the one given, or one made now). */
export async function remoteServerTransport(
  server: HttpServer,
  deps: McpClientDeps,
  log: ServerLog,
  auth: RemoteAuthState,
): Promise<{ transport: Transport; oauth: McpOAuthFlow | undefined } | { error: string }> {
  // `${env:NAME}` (VS Code and Cursor configs) from the app's environment, now, never stored.
  const given: Record<string, string> = { url: server.url, ...prefixed('header.', server.headers) };
  const fromEnv = resolveEnvRefs(given, deps.env ?? process.env, server.secretScope);
  if ('error' in fromEnv) return { error: `could not connect: ${fromEnv.error}` };
  const urlText = fromEnv.value.url;
  const headers = await resolveSecretRefs(unprefixed('header.', fromEnv.value), deps.resolveSecrets, server.secretScope);
  if ('error' in headers) return { error: `could not connect: ${headers.error}` };
  log.redact(headers.secrets);
  let url: URL;
  try {
    url = new URL(urlText!);
  } catch {
    return { error: `could not connect: "${urlText}" is not a URL` };
  }
  const oauth = server.oauth;
  const oauthSecrets = await resolveSecretRefs(
    { secret: oauth?.clientSecret ?? '', key: oauth?.privateKey ?? '', idpSecret: oauth?.idp?.clientSecret ?? '', idToken: oauth?.idp?.idToken ?? '' },
    deps.resolveSecrets,
    server.secretScope,
  );
  if ('error' in oauthSecrets) return { error: `could not connect: ${oauthSecrets.error}` };
  const grants = oauthSecrets.values;
  log.redact([...headers.secrets, ...oauthSecrets.secrets]);
  let flow = auth.oauth;
  let authProvider: MachineGrantProvider | McpOAuthFlow['provider'] | undefined = machineGrantProvider(oauth, grants);
  if (!authProvider) {
    flow ??= await deps.oauth?.(server.name, server.url, oauth ? { client_id: oauth.clientId, ...(grants.secret ? { client_secret: grants.secret } : {}) } : undefined);
    authProvider = flow?.provider;
  }
  const options = {
    requestInit: { headers: headers.values },
    ...(auth.legacyIssuer ? { skipIssuerMetadataValidation: true } : {}),
    ...(authProvider ? { authProvider } : {}),
    fetch: cappedFetch(deps.fetch ?? fetch, deps.maxMessageBytes ?? 64 * 1024 * 1024),
  };
  const { SSEClientTransport, StreamableHTTPClientTransport } = mcpSdk();
  return { transport: server.kind === 'sse' ? new SSEClientTransport(url, options) : new StreamableHTTPClientTransport(url, options), oauth: flow };
}

/** The 2025-03-26 auth layout: no protected-resource metadata, the AS found from the server's root. */
export async function isLegacyAuthServer(server: HttpServer, doFetch: typeof fetch = fetch): Promise<boolean> {
  const url = new URL(server.url);
  const paths = [`/.well-known/oauth-protected-resource${url.pathname.replace(/\/$/, '')}`, '/.well-known/oauth-protected-resource'];
  for (const path of paths) {
    const response = await doFetch(new URL(path, url.origin), { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
    if (!response || response.ok) return false;
  }
  return true;
}
