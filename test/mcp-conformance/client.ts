// The conformance suite's client: Tooldesk's own MCP client code (McpManager, the connection,
// the tool group, the OAuth flow) run the way the app runs it, with the person replaced:
// elicitation forms are accepted with their schema defaults, and the "browser" of an OAuth
// sign-in follows the authorization server's redirect to our loopback port without a click.
import { McpManager } from '../../electron/runtime/sources/mcp/mcp-manager.ts';
import { managedSpawn } from '../../electron/runtime/sources/mcp/index.ts';
import { formDefaults } from '../../electron/runtime/sources/mcp/connection/form-defaults.ts';
import { createOAuthFlow, memoryCredentialStore } from '../../electron/runtime/sources/mcp/connection/oauth-flow.ts';
import type { ToolContext } from '../../electron/runtime/tools/types.ts';

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
if (!url) {
  process.stderr.write('usage: client.sh SERVER_URL\n');
  process.exit(2);
}
const log = (text: string) => process.stderr.write(`[tooldesk-client ${scenario}] ${text}\n`);

/** Follows the consent page's redirect the way a browser would, ending at our loopback callback. */
async function headlessBrowser(target: URL): Promise<void> {
  let next: URL | undefined = target;
  for (let hops = 0; next && hops < 10; hops++) {
    const response: Response = await fetch(next, { redirect: 'manual' });
    const location: string | null = response.headers.get('location');
    next = location ? new URL(location, next) : undefined;
  }
}

// What a user would put in the server's settings for scenarios that hand out a client: a
// pre-registered client, or a machine (client credentials) grant, its secrets in the "keychain".
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string>;
const keychain: Record<string, string> = {};
const entry: Record<string, unknown> = { url };
if (context.client_id) {
  const oauth: Record<string, string> = { clientId: context.client_id };
  if (context.client_secret) {
    keychain.CLIENT_SECRET = context.client_secret;
    oauth.clientSecret = '${secret:CLIENT_SECRET}';
  }
  if (context.private_key_pem) {
    keychain.CLIENT_KEY = context.private_key_pem;
    oauth.privateKey = '${secret:CLIENT_KEY}';
    oauth.algorithm = context.signing_algorithm ?? 'ES256';
  }
  if (scenario.includes('client-credentials')) oauth.grant = 'client_credentials';
  entry.oauth = oauth;
  if (context.idp_id_token) {
    keychain.IDP_ID_TOKEN = context.idp_id_token;
    entry.oauth = { ...oauth, grant: 'cross_app_access', idp: { issuer: context.idp_issuer, clientId: context.idp_client_id, idToken: '${secret:IDP_ID_TOKEN}', tokenEndpoint: context.idp_token_endpoint } };
  }
}

const store = memoryCredentialStore();
const manager = new McpManager({
  spawn: managedSpawn(),
  resolveSecrets: async (names) => ({
    values: Object.fromEntries(names.filter((n) => keychain[n]).map((n) => [n, keychain[n]!])),
    missing: names.filter((n) => !keychain[n]),
  }),
  workingDir: process.cwd(),
  interactions: {
    elicit: async (ask) => (ask.params.mode === 'url' ? { action: 'decline' } : { action: 'accept', content: formDefaults(ask.params.requestedSchema) }),
    sample: async () => ({ role: 'assistant', model: 'conformance', content: { type: 'text', text: 'ok' } }),
  },
  oauth: (server, _url, client) =>
    createOAuthFlow({
      server,
      store,
      ...(client ? { client } : {}),
      openBrowser: (target) => headlessBrowser(target),
      // Where Tooldesk's Client ID Metadata Document lives for this run (the suite's test AS knows it).
      clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
      timeoutMs: 20_000,
    }),
});

/** Arguments for a tool from its schema: defaults, else a simple value of the right type. */
function sampleArgs(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; default?: unknown; enum?: unknown[] }>;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(properties)) {
    if (field.default !== undefined) out[name] = field.default;
    else if (field.enum?.length) out[name] = field.enum[0];
    else if (field.type === 'number' || field.type === 'integer') out[name] = 1;
    else if (field.type === 'boolean') out[name] = true;
    else if (field.type === 'string') out[name] = 'test';
  }
  return out;
}

let code = 0;
try {
  await manager.configure({ server: entry }, { server: true });
  await manager.startAll();
  const state = manager.states()[0]!;
  log(`state: ${state.status}${state.detail ? ` (${state.detail})` : ''}`);
  if (state.status !== 'ready') code = 1;
  const group = manager.groups()[0];
  for (const tool of group?.tools ?? []) {
    const ctx: ToolContext = { callId: 'conformance', sessionId: 'conformance', signal: AbortSignal.timeout(20_000), onUpdate: () => {} };
    const result = await tool.execute(sampleArgs(tool.definition.function.parameters), ctx);
    log(`${tool.definition.function.name}: ${result.status} ${(result.formattedText ?? result.error ?? '').slice(0, 200)}`);
  }
} catch (error) {
  log(`error: ${(error as Error).stack ?? error}`);
  code = 1;
} finally {
  await manager.close();
}
process.exit(code);
