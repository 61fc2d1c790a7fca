// An MCP registry read through its v0.1 API (the official registry's, as subregistries serve it):
// `GET {base}/v0.1/servers?search=TEXT` and `GET {base}/v0.1/servers/{name}/versions/latest`.
// Answers are cached (TOOLDESK_HOME/cache/mcp-registry) so a search works offline and says how
// old its answer is. Everything a registry says is untrusted: bounded, checked, shown to the user.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { secretRefsIn, serverSecretName } from '../config/secret-refs.ts';

export interface RegistryPackage {
  registryType: string;
  identifier: string;
  version?: string;
  fileSha256?: string;
  environmentVariables: Array<{ name: string; description?: string; isSecret: boolean; isRequired: boolean; default?: string; secretRefs?: string[] }>;
}

export interface RegistryServer {
  name: string;
  title?: string;
  description?: string;
  version: string;
  packages: RegistryPackage[];
  remotes: Array<{ type: string; url: string; headers: Array<{ name: string; description?: string; isSecret: boolean; value?: string; isRequired?: boolean; secretRefs?: string[] }> }>;
}

export interface RegistryAnswer<T> {
  value: T;
  /** Set when the answer came from the cache (the registry could not be reached): its age in ms. */
  cachedAgeMs?: number;
}

const MAX_BYTES = 4 * 1024 * 1024;

export async function searchRegistry(base: string, text: string, cacheDir: string, doFetch: typeof fetch = fetch): Promise<RegistryAnswer<RegistryServer[]> | { error: string }> {
  const url = `${base.replace(/\/$/, '')}/v0.1/servers?search=${encodeURIComponent(text)}`;
  const answer = await cachedGet(url, cacheDir, doFetch);
  if ('error' in answer) return answer;
  const list = (answer.value as { servers?: unknown }).servers;
  if (!Array.isArray(list)) return { error: `${url}: the answer has no "servers" list` };
  return { value: list.map((entry) => parseServer((entry as { server?: unknown }).server ?? entry)).filter((s): s is RegistryServer => s !== undefined), ...(answer.cachedAgeMs !== undefined ? { cachedAgeMs: answer.cachedAgeMs } : {}) };
}

export async function latestServer(base: string, name: string, cacheDir: string, doFetch: typeof fetch = fetch): Promise<RegistryAnswer<RegistryServer> | { error: string }> {
  const url = `${base.replace(/\/$/, '')}/v0.1/servers/${encodeURIComponent(name)}/versions/latest`;
  const answer = await cachedGet(url, cacheDir, doFetch);
  if ('error' in answer) return answer;
  const server = parseServer((answer.value as { server?: unknown }).server ?? answer.value);
  if (!server) return { error: `${url}: the answer is not a server description` };
  return { value: server, ...(answer.cachedAgeMs !== undefined ? { cachedAgeMs: answer.cachedAgeMs } : {}) };
}

function parseServer(raw: unknown): RegistryServer | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.name !== 'string' || typeof r.version !== 'string') return undefined;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const packages = (Array.isArray(r.packages) ? r.packages : []).flatMap((p: Record<string, unknown>) =>
    typeof p?.registryType === 'string' && typeof p.identifier === 'string'
      ? [{
          registryType: p.registryType,
          identifier: p.identifier,
          ...(str(p.version) ? { version: str(p.version)! } : {}),
          ...(str(p.fileSha256) ? { fileSha256: str(p.fileSha256)! } : {}),
          environmentVariables: (Array.isArray(p.environmentVariables) ? p.environmentVariables : []).filter((e: Record<string, unknown>) => typeof e?.name === 'string').map((e: Record<string, unknown>) =>
            askedNotNamed({
              name: e.name as string,
              ...(str(e.description) ? { description: str(e.description)! } : {}),
              isSecret: e.isSecret === true,
              isRequired: e.isRequired === true,
              ...(str(e.default) ? { default: str(e.default)! } : {}),
            }, 'default'),
          ),
        }]
      : [],
  );
  const remotes = (Array.isArray(r.remotes) ? r.remotes : []).flatMap((m: Record<string, unknown>) =>
    typeof m?.url === 'string' && /^https?:\/\//.test(m.url)
      ? [{
          type: str(m.type) ?? 'streamable-http',
          url: m.url,
          headers: (Array.isArray(m.headers) ? m.headers : []).filter((h: Record<string, unknown>) => typeof h?.name === 'string').map((h: Record<string, unknown>) =>
            askedNotNamed({ name: h.name as string, ...(str(h.description) ? { description: str(h.description)! } : {}), isSecret: h.isSecret === true, ...(str(h.value) ? { value: str(h.value)! } : {}) }, 'value'),
          ),
        }]
      : [],
  );
  return { name: r.name, ...(str(r.title) ? { title: str(r.title)! } : {}), ...(str(r.description) ? { description: str(r.description)! } : {}), version: r.version, packages, remotes };
}

/**
 * A value that names a keychain secret (`Bearer ${secret:NAME}`) becomes a secret the user types
 * at install, required, kept for this server only: a registry entry never gets the user's secret
 * by name. `secretRefs` keeps the names it gave, so the install refuses one that exists.
 */
function askedNotNamed<T extends { name: string; description?: string; isSecret: boolean; isRequired?: boolean; secretRefs?: string[] }>(item: T, field: 'default' | 'value'): T {
  const given = (item as Record<string, unknown>)[field];
  const refs = typeof given === 'string' ? secretRefsIn(given) : [];
  if (refs.length === 0) return item;
  const { [field]: _dropped, ...rest } = item as Record<string, unknown>;
  const note = `The registry entry gave "${String(given).slice(0, 200)}", naming your keychain secret ${refs.join(', ')}; Tooldesk never reads a secret for a registry entry: type the value (kept in the keychain for this server only).`;
  return { ...(rest as T), description: item.description ? `${item.description} — ${note}` : note, isSecret: true, isRequired: true, secretRefs: refs };
}

/** GET as JSON (bounded, 15 s); on success the cache is refreshed, on failure the cache answers. */
async function cachedGet(url: string, cacheDir: string, doFetch: typeof fetch): Promise<RegistryAnswer<unknown> | { error: string }> {
  const file = join(cacheDir, `${createHash('sha256').update(url).digest('hex').slice(0, 24)}.json`);
  try {
    const response = await doFetch(url, { signal: AbortSignal.timeout(15_000), headers: { accept: 'application/json' } });
    if (response.status === 404) return { error: `${url}: not found in the registry (404)` };
    if (!response.ok) throw new Error(`the registry answered ${response.status}`);
    const text = await response.text();
    if (text.length > MAX_BYTES) throw new Error(`the answer is larger than ${MAX_BYTES / 1024 / 1024} MB`);
    const value = JSON.parse(text) as unknown;
    try {
      mkdirSync(cacheDir, { recursive: true });
      writeFileSync(file, JSON.stringify({ fetchedAt: Date.now(), value }));
    } catch {
      // No cache: the next offline search says the registry cannot be reached.
    }
    return { value };
  } catch (error) {
    try {
      const cached = JSON.parse(readFileSync(file, 'utf8')) as { fetchedAt: number; value: unknown };
      return { value: cached.value, cachedAgeMs: Date.now() - cached.fetchedAt };
    } catch {
      return { error: `${url}: ${(error as Error).message} (and no cached answer)` };
    }
  }
}

/** The secret names a registry server's values named (they became values the user types, see askedNotNamed). */
export function registryNamedSecrets(server: RegistryServer): string[] {
  const refs = [...server.packages.flatMap((p) => p.environmentVariables), ...server.remotes.flatMap((r) => r.headers)].flatMap((v) => v.secretRefs ?? []);
  return [...new Set(refs)];
}

/** The settings entry for a registry server: an npm or PyPI package, or a remote; secrets as keychain references. */
export function registryEntry(server: RegistryServer, name: string, values: Record<string, string>, hasCommand: (command: string) => boolean): { entry: Record<string, unknown>; secrets: Array<{ name: string; value: string }>; missing: string[] } | { error: string } {
  const secrets: Array<{ name: string; value: string }> = [];
  const missing: string[] = [];
  const secretName = (key: string) => serverSecretName(name, key);
  const pkg = server.packages.find((p) => p.registryType === 'npm') ?? server.packages.find((p) => p.registryType === 'pypi');
  if (pkg) {
    const env: Record<string, string> = {};
    for (const v of pkg.environmentVariables) {
      const value = values[v.name] ?? v.default;
      if (value === undefined || value === '') {
        if (v.isRequired) missing.push(v.name);
        continue;
      }
      if (v.isSecret) {
        secrets.push({ name: secretName(v.name), value });
        env[v.name] = `\${secret:${secretName(v.name)}}`;
      } else env[v.name] = value;
    }
    const version = pkg.version ?? server.version;
    let command: string[];
    if (pkg.registryType === 'npm') command = ['npx', '-y', `${pkg.identifier}@${version}`];
    else {
      if (!hasCommand('uvx')) return { error: `${server.name} is a PyPI package, started with uvx, which is not installed here (install uv: https://docs.astral.sh/uv/)` };
      command = ['uvx', `${pkg.identifier}==${version}`];
    }
    return { entry: { command: command[0], args: command.slice(1), ...(Object.keys(env).length ? { env } : {}), registry: { name: server.name, version: server.version } }, secrets, missing };
  }
  const remote = server.remotes[0];
  if (remote) {
    const headers: Record<string, string> = {};
    for (const h of remote.headers) {
      const value = values[h.name] ?? h.value;
      if (value === undefined || value === '') {
        if (h.isRequired) missing.push(h.name);
        continue;
      }
      if (h.isSecret) {
        secrets.push({ name: secretName(h.name), value });
        headers[h.name] = `\${secret:${secretName(h.name)}}`;
      } else headers[h.name] = value;
    }
    return { entry: { url: remote.url, ...(remote.type === 'sse' ? { type: 'sse' } : {}), ...(Object.keys(headers).length ? { headers } : {}), registry: { name: server.name, version: server.version } }, secrets, missing };
  }
  const kinds = server.packages.map((p) => p.registryType).join(', ') || 'none';
  return { error: `${server.name} has no npm, PyPI or mcpb package and no remote Tooldesk can start (its packages: ${kinds})` };
}
