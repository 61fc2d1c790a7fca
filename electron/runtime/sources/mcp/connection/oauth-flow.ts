// OAuth 2.1 for remote MCP servers, on the SDK's auth helpers (protected-resource metadata,
// authorization-server discovery, PKCE, client ID metadata documents or dynamic registration,
// `iss` check, refresh): this file gives them a place to keep credentials (the keychain in the
// app), a browser to send the user to, and a loopback port that receives the redirect.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

/** Where a server's client registration and tokens are kept. Contract: never throws. */
export interface CredentialStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface OAuthFlowOptions {
  server: string;
  store: CredentialStore;
  /** Shows the consent page: the app opens the browser after the user agreed; tests follow it headlessly. */
  openBrowser: (url: URL) => Promise<void>;
  /** A Client ID Metadata Document URL, used when the authorization server supports them. */
  clientMetadataUrl?: string;
  /** A client registered beforehand (settings `oauth.clientId`): no dynamic registration then. */
  client?: { client_id: string; client_secret?: string };
  /** How long to wait for the user to finish in the browser (default 5 minutes). */
  timeoutMs?: number;
}

/** One server's OAuth: the SDK's provider plus the wait for the browser's redirect. */
export interface McpOAuthFlow {
  provider: OAuthClientProvider;
  /** Resolves with the redirect's query (code, state, iss) once the user is done; rejects on timeout or a state mismatch. */
  waitForCallback(): Promise<URLSearchParams>;
  close(): Promise<void>;
}

const keyFor = (server: string, what: string) => `mcp.oauth.${server.replace(/[^A-Za-z0-9_.-]/g, '_')}.${what}`;

export async function createOAuthFlow(options: OAuthFlowOptions): Promise<McpOAuthFlow> {
  const { server, store } = options;
  // The redirect may arrive before anyone waits for it (a headless browser follows at once).
  let pending: { resolve: (params: URLSearchParams) => void; reject: (error: Error) => void } | undefined;
  let arrived: URLSearchParams | Error | undefined;
  const deliver = (outcome: URLSearchParams | Error) => {
    if (!pending) arrived = outcome;
    else if (outcome instanceof Error) pending.reject(outcome);
    else pending.resolve(outcome);
    pending = undefined;
  };
  let expectedState = '';
  let verifier = '';
  let discovery: OAuthDiscoveryState | undefined;

  const loopback: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const ok = url.searchParams.get('state') === expectedState && (url.searchParams.has('code') || url.searchParams.has('error'));
    res.writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8' });
    res.end(ok ? '<p>Tooldesk is signed in. You can close this tab.</p>' : '<p>This sign-in link is not the one Tooldesk is waiting for.</p>');
    if (!ok) return;
    const error = url.searchParams.get('error');
    if (error) deliver(new Error(`the authorization server refused: ${error}${url.searchParams.get('error_description') ? ` (${url.searchParams.get('error_description')})` : ''}`));
    else deliver(url.searchParams);
  });
  await new Promise<void>((resolve, reject) => {
    loopback.once('error', reject);
    loopback.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (loopback.address() as { port: number }).port;
  const redirectUrl = `http://127.0.0.1:${port}/callback`;

  const readJson = async <T>(what: string): Promise<T | undefined> => {
    const text = await store.get(keyFor(server, what)).catch(() => null);
    if (!text) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      return undefined;
    }
  };
  const writeJson = (what: string, value: unknown) => store.set(keyFor(server, what), JSON.stringify(value)).catch(() => {});

  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return redirectUrl;
    },
    ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: 'Tooldesk',
        redirect_uris: [redirectUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: options.client?.client_secret ? 'client_secret_basic' : 'none',
      };
    },
    state: () => {
      expectedState = randomBytes(16).toString('base64url');
      return expectedState;
    },
    clientInformation: async () => options.client ?? (await readJson<StoredOAuthClientInformation>('client')),
    saveClientInformation: (info) => writeJson('client', info),
    tokens: () => readJson<StoredOAuthTokens>('tokens'),
    saveTokens: (tokens) => writeJson('tokens', tokens),
    redirectToAuthorization: (url) => options.openBrowser(url),
    saveCodeVerifier: (value) => {
      verifier = value;
    },
    codeVerifier: () => verifier,
    saveDiscoveryState: (state) => {
      discovery = state;
    },
    discoveryState: () => discovery,
    invalidateCredentials: async (scope) => {
      if (scope === 'all' || scope === 'client') await store.delete(keyFor(server, 'client')).catch(() => {});
      if (scope === 'all' || scope === 'tokens') await store.delete(keyFor(server, 'tokens')).catch(() => {});
      if (scope === 'all' || scope === 'verifier') verifier = '';
      if (scope === 'all' || scope === 'discovery') discovery = undefined;
    },
  };

  return {
    provider,
    waitForCallback: () =>
      new Promise<URLSearchParams>((resolve, reject) => {
        const early = arrived;
        arrived = undefined;
        if (early instanceof Error) return reject(early);
        if (early) return resolve(early);
        const timer = setTimeout(() => {
          pending = undefined;
          reject(new Error(`sign-in was not finished in the browser within ${Math.round((options.timeoutMs ?? 300_000) / 1000)} s`));
        }, options.timeoutMs ?? 300_000);
        timer.unref?.();
        pending = {
          resolve: (params) => (clearTimeout(timer), resolve(params)),
          reject: (error) => (clearTimeout(timer), reject(error)),
        };
      }),
    close: () => new Promise<void>((resolve) => loopback.close(() => resolve())),
  };
}

/** Credentials kept in memory only (a conformance run, a test). */
export function memoryCredentialStore(): CredentialStore {
  const values = new Map<string, string>();
  return {
    get: async (key) => values.get(key) ?? null,
    set: async (key, value) => void values.set(key, value),
    delete: async (key) => void values.delete(key),
  };
}

/** Credentials in the keychain (entries `mcp.oauth.SERVER.client|tokens`); a keychain failure reads as "none". */
export function keychainCredentialStore(secrets: { get(name: string): Promise<string | null>; set(name: string, value: string): Promise<void>; delete(name: string): Promise<boolean> }): CredentialStore {
  return {
    get: (key) => secrets.get(key).catch(() => null),
    set: (key, value) => secrets.set(key, value).catch(() => {}),
    delete: async (key) => void (await secrets.delete(key).catch(() => false)),
  };
}
