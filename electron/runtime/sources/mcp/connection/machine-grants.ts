// OAuth grants that need no person: client credentials (a secret, or a private key for
// private_key_jwt) and enterprise cross-app access (an IdP's ID token exchanged for an ID-JAG).
// The SDK's providers do the protocol; this picks one from a server's `oauth` settings.
import type { ClientCredentialsProvider, CrossAppAccessProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/client';
import { mcpSdk } from '../mcp-sdk.ts';
import type { OAuthClientConfig } from '../config/server-config.ts';

/** Secret values already resolved from the keychain (`${secret:…}` in the settings). */
export interface GrantSecrets {
  secret?: string;
  key?: string;
  idpSecret?: string;
  idToken?: string;
}

export type MachineGrantProvider = ClientCredentialsProvider | PrivateKeyJwtProvider | CrossAppAccessProvider;

/** The provider for a machine grant, or undefined for the (browser) authorization-code grant. */
export function machineGrantProvider(oauth: OAuthClientConfig | undefined, s: GrantSecrets): MachineGrantProvider | undefined {
  if (!oauth) return undefined;
  const { ClientCredentialsProvider, CrossAppAccessProvider, discoverAndRequestJwtAuthGrant, PrivateKeyJwtProvider, requestJwtAuthorizationGrant } = mcpSdk();
  const scope = oauth.scope ? { scope: oauth.scope } : {};
  if (oauth.grant === 'cross_app_access' && oauth.idp) {
    const idp = oauth.idp;
    return new CrossAppAccessProvider({
      clientId: oauth.clientId,
      clientSecret: s.secret ?? '',
      ...scope,
      assertion: async (ctx) => {
        const request = {
          audience: ctx.authorizationServerUrl,
          resource: ctx.resourceUrl,
          idToken: s.idToken ?? '',
          clientId: idp.clientId,
          ...(s.idpSecret ? { clientSecret: s.idpSecret } : {}),
          ...(ctx.scope ? { scope: ctx.scope } : {}),
          fetchFn: ctx.fetchFn,
        };
        // A known token endpoint skips the IdP's metadata discovery.
        const grant = idp.tokenEndpoint
          ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idp.tokenEndpoint })
          : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp.issuer });
        return grant.jwtAuthGrant;
      },
    });
  }
  if (oauth.grant === 'client_credentials') {
    return s.key
      ? new PrivateKeyJwtProvider({ clientId: oauth.clientId, privateKey: s.key, algorithm: oauth.algorithm ?? 'ES256', ...scope })
      : new ClientCredentialsProvider({ clientId: oauth.clientId, clientSecret: s.secret ?? '', ...scope });
  }
  return undefined;
}
