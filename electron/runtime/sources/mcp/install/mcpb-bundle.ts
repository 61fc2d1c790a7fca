// `.mcpb` bundles (the MCP Bundle format Claude Desktop installs; library @anthropic-ai/mcpb):
// opened without unpacking (the zip's directory checked against bounds, the manifest read alone,
// bundle/), the manifest checked against its schema, the signature verified when there is one,
// the platform checked; unpacked streamed into TOOLDESK_HOME/mcpb/NAME only after the user's yes;
// `mcp_config` resolved with ${__dirname}, ${HOME}, ${user_config.X}. A `sensitive` value never
// reaches settings: the entry refers to the keychain secret `mcp.NAME.KEY` instead, and a
// `directory` value becomes one of the server's roots and writable folders.
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { getMcpConfigForManifest, verifyMcpbFile, vAny } from '@anthropic-ai/mcpb';
import type { McpBundleFacts } from '../../../../../shared/mcp-install.ts';
import { bundleSecretRefs } from './bundle-secret-refs.ts';
import { readZipDirectory, type ZipDirectory } from './zip-directory.ts';
import { serverSecretName } from '../config/secret-refs.ts';
import { extractZip, readZipEntry } from './zip-extract.ts';

/** A manifest is a page of JSON: anything bigger is not read. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

export interface UserConfigField {
  key: string;
  type: 'string' | 'number' | 'boolean' | 'directory' | 'file';
  title: string;
  description?: string;
  required: boolean;
  sensitive: boolean;
  multiple: boolean;
  default?: unknown;
  /** A field made for a `${secret:NAME}` the manifest named (bundle-secret-refs.ts): NAME. */
  secretRef?: string;
}

export interface BundleManifest extends McpBundleFacts {
  userConfig: UserConfigField[];
  raw: Record<string, unknown>;
}

export interface OpenedBundle {
  manifest: BundleManifest;
  /** Its staging folder: a copy of the file until the user says yes, then what unpackBundle wrote. */
  dir: string;
  signature: { status: 'signed' | 'unsigned' | 'self-signed'; publisher?: string };
  /** The checked table of contents: nothing is unpacked before unpackBundle. */
  archive: ZipDirectory;
}

const stagedFile = (bundle: OpenedBundle) => join(bundle.dir, 'bundle.mcpb');
const unpackedDir = (bundle: OpenedBundle) => join(bundle.dir, 'unpacked');

export const bundlesDir = (home: string) => join(home, 'mcpb');

/**
 * Reads FILE's manifest without unpacking anything (the zip's directory is checked against the
 * bounds of install/zip-directory.ts first), and keeps a copy of the file in a staging folder
 * under TOOLDESK_HOME/mcpb for unpackBundle.
 */
export async function openBundle(file: string, home: string): Promise<OpenedBundle | { error: string }> {
  if (!existsSync(file)) return { error: `${file} does not exist` };
  let staging: string | undefined;
  try {
    const archive = await readZipDirectory(file);
    if ('error' in archive) throw new Error(`${archive.error}; nothing was unpacked`);
    const manifestEntry = archive.entries.find((e) => e.name === 'manifest.json');
    if (!manifestEntry) throw new Error('it has no manifest.json at its top level (is it a .mcpb file?)');
    let raw: unknown;
    try {
      raw = JSON.parse((await readZipEntry(file, manifestEntry, MAX_MANIFEST_BYTES)).toString('utf8'));
    } catch (error) {
      throw new Error(`its manifest.json cannot be read: ${(error as Error).message}`);
    }
    const parsed = vAny.McpbManifestSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`its manifest.json is not valid: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
    }
    const signature = hasSignatureBlock(file) ? await verifyMcpbFile(file).catch(() => ({ status: 'unsigned' as const })) : { status: 'unsigned' as const };
    staging = join(bundlesDir(home), `.staging-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
    mkdirSync(staging, { recursive: true });
    copyFileSync(file, join(staging, 'bundle.mcpb'));
    // A secret the manifest names is asked of the user, never read from the keychain.
    const { manifest, fields } = bundleSecretRefs(raw as Record<string, unknown>);
    const described = describeManifest(manifest);
    for (const { key, secretRef } of fields) Object.assign(described.userConfig.find((f) => f.key === key)!, { secretRef });
    return { manifest: described, dir: staging, signature, archive };
  } catch (error) {
    if (staging) rmSync(staging, { recursive: true, force: true });
    return { error: `${file}: ${(error as Error).message}` };
  }
}

/** A signed bundle ends with the MCPB signature footer (the verifier reads the whole file: only then). */
function hasSignatureBlock(file: string): boolean {
  const footer = Buffer.from('MCPB_SIG_END');
  const size = statSync(file).size;
  const tail = Buffer.alloc(Math.min(size, 256));
  const fd = openSync(file, 'r');
  try {
    readSync(fd, tail, 0, tail.length, size - tail.length);
  } finally {
    closeSync(fd);
  }
  return tail.includes(footer);
}

function describeManifest(m: Record<string, unknown>): BundleManifest {
  const names = (list: unknown) => (Array.isArray(list) ? list.map((x) => String((x as { name?: unknown }).name ?? '')).filter(Boolean) : []);
  const author = m.author as { name?: string; email?: string } | undefined;
  const compatibility = m.compatibility as { platforms?: string[] } | undefined;
  const userConfig = Object.entries((m.user_config ?? {}) as Record<string, Record<string, unknown>>).map(([key, f]) => ({
    key,
    type: f.type as UserConfigField['type'],
    title: String(f.title ?? key),
    ...(typeof f.description === 'string' ? { description: f.description } : {}),
    required: f.required === true,
    sensitive: f.sensitive === true,
    multiple: f.multiple === true,
    ...(f.default !== undefined ? { default: f.default } : {}),
  }));
  return {
    name: String(m.name),
    version: String(m.version),
    ...(typeof m.display_name === 'string' ? { displayName: m.display_name } : {}),
    ...(typeof m.description === 'string' ? { description: m.description } : {}),
    ...(author?.name ? { author: author.email ? `${author.name} <${author.email}>` : author.name } : {}),
    tools: names(m.tools),
    prompts: names(m.prompts),
    ...(compatibility?.platforms ? { platforms: compatibility.platforms } : {}),
    privacyPolicies: Array.isArray(m.privacy_policies) ? m.privacy_policies.map(String) : [],
    userConfig,
    raw: m,
  };
}

/** Why the bundle cannot run here, or undefined. */
export function platformProblem(manifest: BundleManifest, platform: NodeJS.Platform = process.platform): string | undefined {
  if (!manifest.platforms || manifest.platforms.includes(platform)) return undefined;
  return `the bundle is for ${manifest.platforms.join(', ')}, not this machine (${platform})`;
}

/** A value given for a field, checked against its type; returns the value or what is wrong. */
export function checkConfigValue(field: UserConfigField, value: string): { value: string | number | boolean } | { error: string } {
  switch (field.type) {
    case 'number':
      return Number.isFinite(Number(value)) && value.trim() !== '' ? { value: Number(value) } : { error: `${field.key} must be a number (got "${value}")` };
    case 'boolean':
      return value === 'true' || value === 'false' ? { value: value === 'true' } : { error: `${field.key} must be true or false (got "${value}")` };
    case 'directory':
    case 'file': {
      const path = resolve(value.startsWith('~/') ? join(homedir(), value.slice(2)) : value);
      return existsSync(path) ? { value: path } : { error: `${field.key} must be an existing ${field.type} (${path} does not exist)` };
    }
    default:
      return { value };
  }
}

export interface InstallPlan {
  /** The settings entry (a sensitive value only as `${secret:…}`). */
  entry: Record<string, unknown>;
  /** Secrets to store before the entry is written. */
  secrets: Array<{ name: string; value: string }>;
}

/**
 * The settings entry for the bundle installed as `name` in `dir`, from the user's values.
 * Sensitive values go to the keychain; directories become roots and writable folders.
 */
export async function bundleEntry(bundle: OpenedBundle, name: string, dir: string, values: Record<string, string | number | boolean>): Promise<InstallPlan | { error: string }> {
  const secrets: InstallPlan['secrets'] = [];
  const userConfig: Record<string, string | number | boolean> = {};
  const folders: string[] = [];
  for (const field of bundle.manifest.userConfig) {
    const value = values[field.key] ?? (field.default as string | number | boolean | undefined);
    if (value === undefined || value === '') {
      if (field.required) return { error: `"${field.key}" (${field.title}) is required: give it with --config ${field.key}=VALUE` };
      continue;
    }
    if (field.sensitive) {
      const secret = serverSecretName(name, field.key);
      secrets.push({ name: secret, value: String(value) });
      userConfig[field.key] = `\${secret:${secret}}`;
    } else userConfig[field.key] = value;
    if (field.type === 'directory') folders.push(String(value));
  }
  const config = await getMcpConfigForManifest({
    manifest: bundle.manifest.raw as never,
    extensionPath: dir,
    systemDirs: { HOME: homedir(), DESKTOP: join(homedir(), 'Desktop'), DOCUMENTS: join(homedir(), 'Documents'), DOWNLOADS: join(homedir(), 'Downloads') },
    userConfig: userConfig as never,
    pathSeparator: sep,
  });
  if (!config) return { error: 'its manifest has no server.mcp_config to start it with' };
  const entry: Record<string, unknown> = {
    command: config.command,
    ...(config.args?.length ? { args: config.args } : {}),
    ...(config.env && Object.keys(config.env).length ? { env: config.env } : {}),
    ...(folders.length ? { roots: folders, writable: folders } : {}),
    bundle: { name: bundle.manifest.name, version: bundle.manifest.version, dir, secrets: secrets.map((s) => s.name), signature: bundle.signature.status },
  };
  // A sensitive value must never land in settings, even through a field it was substituted into.
  const text = JSON.stringify(entry);
  for (const s of secrets) if (text.includes(s.value)) return { error: `the manifest writes the sensitive value of ${s.name} outside env; refusing to store it in settings` };
  return { entry, secrets };
}

/** Where the bundle installed as NAME lives. */
export const bundleTarget = (home: string, name: string) => join(bundlesDir(home), name.replace(/[^A-Za-z0-9_.-]/g, '_'));

/** After the user's yes: unpacks the bundle, streamed, into its staging folder (throws at the first bad entry). */
export async function unpackBundle(bundle: OpenedBundle): Promise<void> {
  rmSync(unpackedDir(bundle), { recursive: true, force: true });
  await extractZip(stagedFile(bundle), bundle.archive.entries, unpackedDir(bundle));
}

/** Moves what unpackBundle wrote to its place (replacing an older version); the staging folder goes. */
export function placeBundle(bundle: OpenedBundle, target: string): void {
  rmSync(target, { recursive: true, force: true });
  renameSync(unpackedDir(bundle), target);
  rmSync(bundle.dir, { recursive: true, force: true });
}

/** Removes an unused staging folder. */
export function discardBundle(bundle: OpenedBundle): void {
  rmSync(bundle.dir, { recursive: true, force: true });
}
