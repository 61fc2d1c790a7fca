// Settings → MCP servers → "Install bundle…" and "Browse servers" over the runtime: the same
// bundle and registry code as `tooldesk mcp install`, with the user's answers coming from a form
// instead of a terminal. A bundle is opened (unpacked in a staging folder) first, shown, then
// installed or discarded; a registry server is installed from its latest version. Sensitive
// values reach the keychain only, never settings; the installed server is switched on.
// The bundle library and the registry client load on first use (they are not needed to start).
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { apiError } from '../../../../shared/api.ts';
import type { McpServerView } from '../../../../shared/mcp.ts';
import { registryLocalName, type McpBundleView, type McpRegistrySearch } from '../../../../shared/mcp-install.ts';
import type { OpenedBundle } from '../../sources/mcp/install/mcpb-bundle.ts';
import type { SettingsStore } from '../../store/settings-store.ts';

export interface McpInstallService {
  openBundle(fileName: string, data: string): Promise<McpBundleView>;
  installBundle(id: string, values: Record<string, string>, name?: string): Promise<McpServerView[]>;
  discardBundle(id: string): void;
  searchRegistry(text: string): Promise<McpRegistrySearch>;
  installFromRegistry(name: string, values: Record<string, string>, localName?: string): Promise<McpServerView[]>;
  openRegistryBundle(name: string): Promise<McpBundleView>;
  close(): void;
}

export interface McpInstallParts {
  home: string;
  settings: SettingsStore;
  /** Stores a secret, and says whether one exists (the host's SecretService): an install never names the user's. */
  secrets: { set(name: string, value: string): Promise<void>; exists(name: string): Promise<boolean> };
  /** Where secrets go now: sensitive bundle values need the keychain itself. */
  secretBackend: () => Promise<'keyring' | 'session' | 'none'>;
  /** The server rows after a change (McpService.list). */
  list: () => McpServerView[];
}

type Entries = Record<string, Record<string, unknown>>;

const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const invalid = (message: string) => apiError('InvalidRequestError', message);
/** The cache `tooldesk mcp search` uses too: either one answers offline for the other. */
export const registryCacheDir = (home: string) => join(home, 'cache', 'mcp-registry');

export function createMcpInstallService(parts: McpInstallParts): McpInstallService {
  const { home, settings } = parts;
  /** `from`: the registry server the bundle came from (its entry records it). */
  const staged = new Map<string, { bundle: OpenedBundle; fileName: string; from?: { name: string; version: string } }>();
  const entries = (): Entries => (settings.get().mcpServers ?? {}) as unknown as Entries;
  const checkName = (name: string) => {
    if (!SERVER_NAME.test(name)) throw invalid(`"${name}" cannot be a server name: use letters, digits, "_", "-" or "." (up to 64), starting with a letter or digit`);
  };
  /** Secrets first (a reference to a secret never stored would be worse than nothing), then one settings write. */
  const addSwitchedOn = async (name: string, entry: Record<string, unknown>, secrets: Array<{ name: string; value: string }>, place?: () => void) => {
    for (const secret of secrets) await parts.secrets.set(secret.name, secret.value);
    place?.();
    const current = settings.get();
    settings.replace({ ...current, mcpServers: { ...entries(), [name]: entry } as never, groupDefaults: { ...current.groupDefaults, [name]: true } });
    return parts.list();
  };
  const registryUrl = () => {
    const url = settings.get().mcpRegistry?.url;
    if (!url) throw invalid('No registry is set: enter the URL of an MCP registry (its v0.1 API) above, or set it with `tooldesk config set mcpRegistry.url \'"https://…"\'`');
    if (!/^https?:\/\//.test(url)) throw invalid(`The registry URL "${url}" must start with http:// or https://`);
    return url;
  };

  const discard = (id: string) => {
    const held = staged.get(id);
    if (!held) return;
    staged.delete(id);
    rmSync(held.bundle.dir, { recursive: true, force: true });
  };

  /** Unpacks `file` into a staging folder and describes it; `fileName` is how the user knows it. */
  const stage = async (file: string, fileName: string, from?: { name: string; version: string }): Promise<McpBundleView> => {
    const bundles = await import('../../sources/mcp/install/mcpb-bundle.ts');
    const opened = await bundles.openBundle(file, home);
    // The library names the file it was given; the user knows it by its own name.
    if ('error' in opened) throw invalid(opened.error.split(file).join(fileName));
    const { namedSecretsRefusal } = await import('../../sources/mcp/config/secret-refs.ts');
    const named = opened.manifest.userConfig.flatMap((f) => (f.secretRef ? [f.secretRef] : []));
    const refusal = await namedSecretsRefusal(`${fileName} (${opened.manifest.name})`, named, (n) => parts.secrets.exists(n));
    if (refusal) {
      bundles.discardBundle(opened);
      throw invalid(refusal);
    }
    const id = randomUUID();
    staged.set(id, { bundle: opened, fileName, ...(from ? { from } : {}) });
    const m = opened.manifest;
    const problem = bundles.platformProblem(m);
    const installed = (entries()[m.name]?.bundle as { name?: string } | undefined)?.name === m.name;
    return {
      id,
      fileName,
      name: from ? registryLocalName(from.name) : m.name,
      version: m.version,
      ...(m.displayName ? { displayName: m.displayName } : {}),
      ...(m.description ? { description: m.description } : {}),
      ...(m.author ? { author: m.author } : {}),
      tools: m.tools,
      prompts: m.prompts,
      ...(m.platforms ? { platforms: m.platforms } : {}),
      privacyPolicies: m.privacyPolicies,
      signature: opened.signature,
      userConfig: m.userConfig.map(({ multiple: _multiple, default: given, ...field }) => ({
        ...field,
        ...(typeof given === 'string' || typeof given === 'number' || typeof given === 'boolean' ? { default: given } : {}),
      })),
      ...(problem ? { platformProblem: problem } : {}),
      ...(installed ? { updates: m.name } : {}),
    };
  };

  return {
    async openBundle(fileName, data) {
      const { bundlesDir } = await import('../../sources/mcp/install/mcpb-bundle.ts');
      if (!fileName.toLowerCase().endsWith('.mcpb')) throw invalid(`${basename(fileName)} is not an MCP bundle: choose a .mcpb file`);
      const uploads = join(bundlesDir(home), '.uploads');
      mkdirSync(uploads, { recursive: true });
      const file = join(uploads, `${randomUUID()}.mcpb`);
      writeFileSync(file, Buffer.from(data, 'base64'));
      try {
        return await stage(file, basename(fileName));
      } finally {
        rmSync(file, { force: true });
      }
    },

    async installBundle(id, values, requested) {
      const held = staged.get(id);
      if (!held) throw apiError('NotFoundError', 'this bundle is no longer open: choose the file again');
      const bundles = await import('../../sources/mcp/install/mcpb-bundle.ts');
      const { bundle } = held;
      const m = bundle.manifest;
      const problem = bundles.platformProblem(m);
      if (problem) throw invalid(`${problem}; not installed`);
      const name = requested ?? (held.from ? registryLocalName(held.from.name) : m.name);
      checkName(name);
      const existing = entries()[name];
      if (existing && (existing.bundle as { name?: string } | undefined)?.name !== m.name) throw invalid(`a server named "${name}" already exists: choose another name`);
      const unknown = Object.keys(values).filter((key) => !m.userConfig.some((f) => f.key === key));
      if (unknown.length) throw invalid(`the bundle has no setting "${unknown[0]}"`);
      const checked: Record<string, string | number | boolean> = {};
      for (const field of m.userConfig) {
        const text = values[field.key];
        if (text === undefined || text === '') continue;
        const value = bundles.checkConfigValue(field, text);
        if ('error' in value) throw invalid(`${field.title}: ${value.error}`);
        checked[field.key] = value.value;
      }
      const target = bundles.bundleTarget(home, name);
      const plan = await bundles.bundleEntry(bundle, name, target, checked);
      // The library's message names the CLI option; here the field is in the form.
      if ('error' in plan) throw invalid(`${m.name}: ${plan.error.replace(/: give it with --config .*$/, ': fill it in')}`);
      if (plan.secrets.length) {
        const backend = await parts.secretBackend();
        if (backend !== 'keyring') throw invalid('a sensitive setting is kept in the keychain only, and this machine has none (see Settings → Runtime); nothing was installed');
      }
      // Unpacked only now, after the yes, streamed and held to the sizes its zip declared.
      try {
        await bundles.unpackBundle(bundle);
      } catch (error) {
        throw invalid(`${m.name}: ${(error as Error).message}; nothing was installed`);
      }
      const entry = held.from ? { ...plan.entry, registry: held.from } : plan.entry;
      const rows = await addSwitchedOn(name, entry, plan.secrets, () => bundles.placeBundle(bundle, target));
      staged.delete(id);
      return rows;
    },

    discardBundle: discard,

    async searchRegistry(text) {
      const url = registryUrl();
      const { searchRegistry } = await import('../../sources/mcp/install/registry-client.ts');
      const found = await searchRegistry(url, text, registryCacheDir(home));
      if ('error' in found) throw apiError('UnavailableError', found.error);
      return { url, servers: found.value, ...(found.cachedAgeMs !== undefined ? { cachedAgeMs: found.cachedAgeMs } : {}) };
    },

    async installFromRegistry(name, values, requested) {
      const { latestServer, registryEntry, registryNamedSecrets } = await import('../../sources/mcp/install/registry-client.ts');
      const found = await latestServer(registryUrl(), name, registryCacheDir(home));
      if ('error' in found) throw apiError('UnavailableError', found.error);
      const { namedSecretsRefusal } = await import('../../sources/mcp/config/secret-refs.ts');
      const refusal = await namedSecretsRefusal(found.value.name, registryNamedSecrets(found.value), (n) => parts.secrets.exists(n));
      if (refusal) throw invalid(refusal);
      const local = requested ?? registryLocalName(found.value.name);
      checkName(local);
      if (entries()[local]) throw invalid(`a server named "${local}" already exists: choose another name`);
      const plan = registryEntry(found.value, local, values, (command) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0);
      if ('error' in plan) throw invalid(plan.error);
      if (plan.missing.length) throw invalid(`${found.value.name} needs ${plan.missing.join(', ')}: fill ${plan.missing.length === 1 ? 'it' : 'them'} in`);
      return addSwitchedOn(local, plan.entry, plan.secrets);
    },

    async openRegistryBundle(name) {
      const { latestServer } = await import('../../sources/mcp/install/registry-client.ts');
      const { fetchRegistryBundle, registryBundleCache, registryBundlePackage } = await import('../../sources/mcp/install/registry-bundle.ts');
      const found = await latestServer(registryUrl(), name, registryCacheDir(home));
      if ('error' in found) throw apiError('UnavailableError', found.error);
      const server = found.value;
      const pkg = registryBundlePackage(server);
      if (!pkg) throw invalid(`${server.name} has no mcpb package to open: install it with Install`);
      const fetched = await fetchRegistryBundle(server, pkg, registryBundleCache(home));
      if ('error' in fetched) throw apiError('UnavailableError', fetched.error);
      // The cached file stays: staging unpacks a copy of it.
      return stage(fetched.file, basename(pkg.identifier.split('?')[0]!) || `${registryLocalName(server.name)}.mcpb`, { name: server.name, version: server.version });
    },

    close() {
      for (const id of [...staged.keys()]) discard(id);
    },
  };
}
