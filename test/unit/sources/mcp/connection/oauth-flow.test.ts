import { describe, expect, it } from 'vitest';
import { createOAuthFlow, memoryCredentialStore } from '../../../../../electron/runtime/sources/mcp/connection/oauth-flow.ts';

describe('the OAuth flow of an MCP server', () => {
  it('receives the redirect on a loopback port, only with the state it sent', async () => {
    const opened: string[] = [];
    const flow = await createOAuthFlow({ server: 'remote', store: memoryCredentialStore(), openBrowser: async (url) => void opened.push(url.toString()), timeoutMs: 2000 });
    try {
      const redirect = String(flow.provider.redirectUrl);
      expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      expect(flow.provider.clientMetadata).toMatchObject({ redirect_uris: [redirect], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] });
      const state = await flow.provider.state!();
      const forged = await fetch(`${redirect}?code=evil&state=not-${state}`);
      expect(forged.status).toBe(400);
      const good = await fetch(`${redirect}?code=abc&state=${state}&iss=https%3A%2F%2Fas.example`);
      expect(good.status).toBe(200);
      const params = await flow.waitForCallback();
      expect(params.get('code')).toBe('abc');
      expect(params.get('iss')).toBe('https://as.example');
    } finally {
      await flow.close();
    }
  });

  it('reports a refusal and a timeout as errors', async () => {
    const flow = await createOAuthFlow({ server: 'r', store: memoryCredentialStore(), openBrowser: async () => {}, timeoutMs: 300 });
    try {
      const state = await flow.provider.state!();
      const refused = expect(flow.waitForCallback()).rejects.toThrow('the authorization server refused: access_denied (nope)');
      await fetch(`${String(flow.provider.redirectUrl)}?error=access_denied&error_description=nope&state=${state}`);
      await refused;
      await expect(flow.waitForCallback()).rejects.toThrow(/not finished in the browser within 0 s/);
    } finally {
      await flow.close();
    }
  });

  it('keeps the client registration and tokens per server in the credential store; a pre-registered client wins', async () => {
    const store = memoryCredentialStore();
    const flow = await createOAuthFlow({ server: 'remote', store, openBrowser: async () => {} });
    await flow.provider.saveTokens({ access_token: 't1', token_type: 'Bearer', refresh_token: 'r1' });
    await flow.provider.saveClientInformation!({ client_id: 'dyn' });
    expect(await store.get('mcp.oauth.remote.tokens')).toContain('"access_token":"t1"');
    expect(await flow.provider.tokens()).toMatchObject({ access_token: 't1' });
    await flow.provider.invalidateCredentials!('tokens');
    expect(await flow.provider.tokens()).toBeUndefined();
    expect(await flow.provider.clientInformation()).toEqual({ client_id: 'dyn' });
    await flow.close();
    const pre = await createOAuthFlow({ server: 'remote', store, openBrowser: async () => {}, client: { client_id: 'pre', client_secret: 's' } });
    expect(await pre.provider.clientInformation()).toEqual({ client_id: 'pre', client_secret: 's' });
    expect(pre.provider.clientMetadata.token_endpoint_auth_method).toBe('client_secret_basic');
    await pre.close();
  });
});
