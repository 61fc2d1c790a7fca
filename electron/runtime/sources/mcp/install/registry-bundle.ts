// A registry server's `mcpb` package: its `identifier` is the bundle's download URL and its
// `fileSha256` the hash the file must have (the registry's schema requires it for mcpb). The
// bundle is downloaded once into TOOLDESK_HOME/cache/mcpb, named by that hash so a later install
// reuses it, and checked before anything is unpacked: a file with another hash is removed and
// nothing is installed. The download is bounded in size and time, like every registry answer.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import type { RegistryPackage, RegistryServer } from './registry-client.ts';

const MAX_BUNDLE_BYTES = 512 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

export const registryBundleCache = (home: string) => join(home, 'cache', 'mcpb');

/** The mcpb package Tooldesk installs: only when there is no npm or PyPI package (they start without a download). */
export function registryBundlePackage(server: RegistryServer): RegistryPackage | undefined {
  if (server.packages.some((p) => p.registryType === 'npm' || p.registryType === 'pypi')) return undefined;
  return server.packages.find((p) => p.registryType === 'mcpb');
}

/** The checked bundle file in the cache (`downloaded`: fetched now, else found there). */
export async function fetchRegistryBundle(
  server: RegistryServer,
  pkg: RegistryPackage,
  cacheDir: string,
  doFetch: typeof fetch = fetch,
): Promise<{ file: string; downloaded: boolean } | { error: string }> {
  const expected = pkg.fileSha256?.toLowerCase();
  if (!expected || !/^[0-9a-f]{64}$/.test(expected)) return { error: `${server.name}: its mcpb package gives no valid fileSha256 (the SHA-256 the bundle must have), so it cannot be checked; not installed` };
  if (!/^https?:\/\//.test(pkg.identifier)) return { error: `${server.name}: its mcpb package's identifier must be the bundle's http(s) URL (got "${pkg.identifier.slice(0, 200)}"); not installed` };
  const file = join(cacheDir, `${expected}.mcpb`);
  if (existsSync(file)) {
    if ((await fileSha256(file)) === expected) return { file, downloaded: false };
    rmSync(file, { force: true }); // damaged since: fetched again
  }
  mkdirSync(cacheDir, { recursive: true });
  const part = `${file}.${process.pid}.part`;
  try {
    const actual = await download(pkg.identifier, part, doFetch);
    if (actual !== expected) {
      rmSync(part, { force: true });
      return { error: `${pkg.identifier}: the downloaded bundle's SHA-256 is ${actual}, but the registry says ${expected} (fileSha256); the download was removed and nothing was installed` };
    }
    renameSync(part, file);
    return { file, downloaded: true };
  } catch (error) {
    rmSync(part, { force: true });
    return { error: `${pkg.identifier}: could not download the bundle: ${(error as Error).message}; nothing was installed` };
  }
}

/** Streams `url` into `target`, hashing as it goes; resolves with the SHA-256 (hex). */
async function download(url: string, target: string, doFetch: typeof fetch): Promise<string> {
  const response = await doFetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  if (!response.ok || !response.body) throw new Error(`the server answered ${response.status}`);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_BUNDLE_BYTES) throw new Error(`it is ${declared} bytes, more than the ${MAX_BUNDLE_BYTES / 1024 / 1024} MiB a bundle may have`);
  const hash = createHash('sha256');
  const out = createWriteStream(target);
  let size = 0;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > MAX_BUNDLE_BYTES) throw new Error(`it is larger than the ${MAX_BUNDLE_BYTES / 1024 / 1024} MiB a bundle may have`);
      hash.update(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  return hash.digest('hex');
}

async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
