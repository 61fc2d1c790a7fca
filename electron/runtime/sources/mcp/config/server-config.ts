// Reads `mcpServers` entries one by one. The shape is the one users already have (Claude Desktop,
// Cursor, LM Studio: `{command, args, env, cwd}` or `{url, headers}`; VS Code adds `type`) plus
// Tooldesk's fields. A broken entry becomes a diagnostic naming the server and the field; the
// other servers still load.
import type { Diagnostic } from '../../../../../shared/tools.ts';
import type { SecretScope } from './secret-refs.ts';

export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

interface Common {
  name: string;
  enabled: boolean;
  timeoutMs: number;
  /** Per tool (the server's own tool name), ms: on top of `timeoutMs`. */
  toolTimeouts: Record<string, number>;
  /** From spawn to its tool list, ms, when the entry names one (else the settings' default). */
  startTimeoutMs?: number;
  trust: boolean;
  /** The folders offered as roots (`roots/list`), when the user named them; else see server-roots.ts. */
  roots?: string[];
  /** Set when the entry was installed from a registry or a bundle: its `${secret:…}` are bound to it (secret-refs.ts). */
  secretScope?: SecretScope;
}

export interface StdioServer extends Common {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  sandbox: 'auto' | 'off';
  writable: string[];
  /** Existing folders named in `args` are writable for the server (default true). */
  writeArgFolders: boolean;
}

/** A pre-registered OAuth client, or a machine (client credentials) grant; secrets as `${secret:NAME}`. */
export interface OAuthClientConfig {
  clientId: string;
  clientSecret?: string;
  grant: 'authorization_code' | 'client_credentials' | 'cross_app_access';
  /** Cross-app access (enterprise IdP): the IdP, its client, and the user's ID token (a secret reference). */
  idp?: { issuer: string; clientId: string; clientSecret?: string; idToken: string; tokenEndpoint?: string };
  /** PEM private key for `private_key_jwt` client authentication (client credentials). */
  privateKey?: string;
  algorithm?: string;
  scope?: string;
}

export interface HttpServer extends Common {
  kind: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  oauth?: OAuthClientConfig;
}

export type McpServer = StdioServer | HttpServer;

/** What a call, a start or a listing of a switched-off server says: it was not started, and how to switch it on. */
export const switchedOffMessage = (name: string) =>
  `MCP server "${name}" is switched off, so Tooldesk did not start it: switch it on with \`tooldesk mcp enable ${name}\` (or its switch in Settings → MCP servers)`;

/** Where a server's diagnostics point: the settings entry. */
export const serverFile = (name: string) => `mcpServers.${name}`;

const KNOWN = new Set(['type', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'enabled', 'disabled', 'timeoutMs', 'timeout', 'startTimeoutMs', 'toolTimeouts', 'sandbox', 'writable', 'trust', 'oauth', 'roots', 'writeArgFolders', 'bundle', 'registry', 'secretMissing']);
/** A bound on any timeout (a day): a typo of a few zeros should not leave a call hanging for a month. */
const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;
const isTimeout = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_TIMEOUT_MS;

export function parseMcpServers(raw: unknown): { servers: McpServer[]; diagnostics: Diagnostic[] } {
  const servers: McpServer[] = [];
  const diagnostics: Diagnostic[] = [];
  if (raw === undefined || raw === null) return { servers, diagnostics };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    diagnostics.push({ severity: 'error', file: 'mcpServers', message: 'mcpServers must be an object of servers by name', hint: 'e.g. {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]}}' });
    return { servers, diagnostics };
  }
  for (const [name, entry] of Object.entries(raw)) {
    const parsed = parseMcpServer(name, entry);
    if ('error' in parsed) diagnostics.push({ severity: 'error', file: serverFile(name), message: parsed.error, code: 'mcp-config' });
    else {
      servers.push(parsed.server);
      for (const warning of parsed.warnings) diagnostics.push({ severity: 'warning', file: serverFile(name), message: warning, code: 'mcp-config' });
    }
  }
  return { servers, diagnostics };
}

type Parsed = { server: McpServer; warnings: string[] } | { error: string };

export function parseMcpServer(name: string, entry: unknown): Parsed {
  const fail = (field: string, what: string): Parsed => ({ error: `MCP server "${name}": ${field} ${what}` });
  if (name.trim() === '') return { error: 'an MCP server has an empty name: give it a name such as "files"' };
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return fail('the entry', 'must be an object with "command" (a local server) or "url" (a remote one)');
  const e = entry as Record<string, unknown>;
  const warnings = Object.keys(e).filter((k) => !KNOWN.has(k)).map((k) => `MCP server "${name}": field "${k}" is not used by Tooldesk`);

  const enabled = e.enabled ?? (e.disabled === undefined ? true : !e.disabled);
  if (typeof enabled !== 'boolean') return fail(e.enabled !== undefined ? '"enabled"' : '"disabled"', 'must be true or false');
  const timeout = e.timeoutMs ?? (typeof e.timeout === 'number' ? e.timeout : undefined);
  if (timeout !== undefined && !isTimeout(timeout)) return fail('"timeoutMs"', 'must be a positive number of milliseconds (at most a day, 86400000)');
  if (e.startTimeoutMs !== undefined && !isTimeout(e.startTimeoutMs)) return fail('"startTimeoutMs"', 'must be a positive number of milliseconds (at most a day, 86400000), e.g. 120000 for a server that downloads itself on first start');
  const toolTimeouts = e.toolTimeouts ?? {};
  if (toolTimeouts === null || typeof toolTimeouts !== 'object' || Array.isArray(toolTimeouts)) return fail('"toolTimeouts"', 'must be an object of tool names to milliseconds, e.g. {"search": 120000}');
  for (const [tool, ms] of Object.entries(toolTimeouts)) {
    if (!isTimeout(ms)) return fail(`"toolTimeouts".${tool}`, 'must be a positive number of milliseconds (at most a day, 86400000)');
  }
  if (e.trust !== undefined && typeof e.trust !== 'boolean') return fail('"trust"', 'must be true or false');
  if (e.roots !== undefined && (!Array.isArray(e.roots) || e.roots.some((r) => typeof r !== 'string' || r === ''))) return fail('"roots"', 'must be an array of folder paths, e.g. ["~/Documents"] ([] offers none)');
  const common: Common = {
    name,
    enabled,
    timeoutMs: (timeout as number | undefined) ?? DEFAULT_MCP_TIMEOUT_MS,
    toolTimeouts: { ...(toolTimeouts as Record<string, number>) },
    ...(e.startTimeoutMs !== undefined ? { startTimeoutMs: e.startTimeoutMs as number } : {}),
    trust: e.trust === true,
    ...(e.roots !== undefined ? { roots: [...(e.roots as string[])] } : {}),
  };
  // Recorded by every install from a registry or a bundle; a `bundle` with a `registry` came from both.
  const origin = e.bundle !== undefined ? 'bundle' : e.registry !== undefined ? 'registry' : undefined;
  if (origin) common.secretScope = { server: name, origin };

  const type = e.type;
  if (type !== undefined && !['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse'].includes(type as string)) {
    return fail('"type"', `must be "stdio", "http" or "sse" (got ${JSON.stringify(type)})`);
  }
  const hasCommand = e.command !== undefined;
  const hasUrl = e.url !== undefined;
  if (hasCommand && hasUrl) return fail('the entry', 'has both "command" and "url": keep one');
  if (!hasCommand && !hasUrl) return fail('the entry', 'needs "command" (a local server) or "url" (a remote one)');

  if (hasUrl) {
    if (typeof e.url !== 'string') return fail('"url"', 'must be a string');
    let url: URL;
    try {
      url = new URL(e.url);
    } catch {
      return fail('"url"', `is not a valid URL: ${e.url}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('"url"', `must start with http:// or https:// (got ${url.protocol})`);
    const headers = stringRecord(e.headers);
    if (typeof headers === 'string') return fail(`"headers"${headers}`, 'must be a string (an object of header names to values)');
    const oauth = parseOAuth(e.oauth);
    if (typeof oauth === 'string') return { error: `MCP server "${name}": ${oauth}` };
    return { server: { ...common, kind: type === 'sse' ? 'sse' : 'http', url: url.toString(), headers, ...(oauth ? { oauth } : {}) }, warnings };
  }

  if (typeof e.command !== 'string' || e.command.trim() === '') return fail('"command"', 'must be a non-empty string');
  const args = e.args ?? [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) return fail('"args"', 'must be an array of strings');
  const env = stringRecord(e.env);
  if (typeof env === 'string') return fail(`"env"${env}`, 'must be a string (an object of variable names to values)');
  if (e.cwd !== undefined && typeof e.cwd !== 'string') return fail('"cwd"', 'must be a string');
  const sandbox = e.sandbox ?? 'auto';
  if (sandbox !== 'auto' && sandbox !== 'off') return fail('"sandbox"', `must be "auto" or "off" (got ${JSON.stringify(sandbox)})`);
  const writable = e.writable ?? [];
  if (!Array.isArray(writable) || writable.some((w) => typeof w !== 'string')) return fail('"writable"', 'must be an array of folder paths');
  if (e.writeArgFolders !== undefined && typeof e.writeArgFolders !== 'boolean') return fail('"writeArgFolders"', 'must be true or false (false keeps the folders named in "args" read-only)');
  return {
    server: { ...common, kind: 'stdio', command: e.command, args: args as string[], env, ...(e.cwd ? { cwd: e.cwd as string } : {}), sandbox, writable: writable as string[], writeArgFolders: e.writeArgFolders !== false },
    warnings,
  };
}

/** The `oauth` field, or what is wrong with it. */
function parseOAuth(value: unknown): OAuthClientConfig | undefined | string {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return '"oauth" must be an object such as {"clientId": "…"}';
  const o = value as Record<string, unknown>;
  if (typeof o.clientId !== 'string' || o.clientId === '') return '"oauth.clientId" must be a non-empty string';
  for (const key of ['clientSecret', 'privateKey', 'algorithm', 'scope'] as const) {
    if (o[key] !== undefined && typeof o[key] !== 'string') return `"oauth.${key}" must be a string`;
  }
  const grant = o.grant ?? 'authorization_code';
  if (grant !== 'authorization_code' && grant !== 'client_credentials' && grant !== 'cross_app_access') return '"oauth.grant" must be "authorization_code", "client_credentials" or "cross_app_access"';
  if (grant === 'cross_app_access') {
    const idp = o.idp as Record<string, unknown> | undefined;
    if (!idp || typeof idp !== 'object') return '"oauth.idp" is needed for cross_app_access: {"issuer", "clientId", "idToken"}';
    for (const key of ['issuer', 'clientId', 'idToken'] as const) if (typeof idp[key] !== 'string' || idp[key] === '') return `"oauth.idp.${key}" must be a non-empty string`;
    if (idp.clientSecret !== undefined && typeof idp.clientSecret !== 'string') return '"oauth.idp.clientSecret" must be a string';
  }
  return { ...(o as unknown as OAuthClientConfig), grant };
}

/** The record, or where it goes wrong ('' for the whole value, '.KEY' for one entry). */
function stringRecord(value: unknown): Record<string, string> | string {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return '';
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') return `.${k}`;
    out[k] = v;
  }
  return out;
}
