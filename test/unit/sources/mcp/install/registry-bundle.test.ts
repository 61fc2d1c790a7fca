// A registry's mcpb package: downloaded once into the cache (named by its fileSha256), checked
// before use, fetched again when the cached file changed, and nothing kept when the hash differs
// or the download fails.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchRegistryBundle, registryBundlePackage } from '../../../../../electron/runtime/sources/mcp/install/registry-bundle.ts';
import type { RegistryPackage, RegistryServer } from '../../../../../electron/runtime/sources/mcp/install/registry-client.ts';

const content = Buffer.from('PK… a bundle');
const sha = createHash('sha256').update(content).digest('hex');
const URL_ = 'https://registry.example/bundles/tiny.mcpb';
const pkg = (patch: Partial<RegistryPackage> = {}): RegistryPackage => ({ registryType: 'mcpb', identifier: URL_, fileSha256: sha, environmentVariables: [], ...patch });
const server = (packages: RegistryPackage[]): RegistryServer => ({ name: 'io.example/tiny', version: '1.0.0', packages, remotes: [] });

const made: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'td-mcpb-cache-'));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fetch that answers every request with `respond()` and counts the requests. */
function fakeFetch(respond: () => Response = () => new Response(content)) {
  const calls: string[] = [];
  const doFetch = (async (url: string | URL) => {
    calls.push(String(url));
    return respond();
  }) as typeof fetch;
  return { doFetch, calls };
}

describe('fetchRegistryBundle', () => {
  it('downloads once into a file named by its hash; later calls take it from the cache', async () => {
    const cache = join(tempDir(), 'mcpb');
    const { doFetch, calls } = fakeFetch();
    const first = await fetchRegistryBundle(server([pkg()]), pkg(), cache, doFetch);
    expect(first).toEqual({ file: join(cache, `${sha}.mcpb`), downloaded: true });
    expect(readFileSync(join(cache, `${sha}.mcpb`))).toEqual(content);
    expect(await fetchRegistryBundle(server([pkg()]), pkg({ fileSha256: sha.toUpperCase() }), cache, doFetch)).toEqual({ file: join(cache, `${sha}.mcpb`), downloaded: false });
    expect(calls).toEqual([URL_]);

    // A cached file that changed since is not trusted: fetched again.
    writeFileSync(join(cache, `${sha}.mcpb`), 'damaged');
    expect(await fetchRegistryBundle(server([pkg()]), pkg(), cache, doFetch)).toEqual({ file: join(cache, `${sha}.mcpb`), downloaded: true });
    expect(calls).toHaveLength(2);
    expect(readFileSync(join(cache, `${sha}.mcpb`))).toEqual(content);
  });

  it('another hash, a failed download or a size over the bound: an error, and no file left', async () => {
    const cache = tempDir();
    const other = createHash('sha256').update('other').digest('hex');
    const mismatch = await fetchRegistryBundle(server([pkg()]), pkg({ fileSha256: other }), cache, fakeFetch().doFetch);
    expect(mismatch).toEqual({ error: `${URL_}: the downloaded bundle's SHA-256 is ${sha}, but the registry says ${other} (fileSha256); the download was removed and nothing was installed` });
    const failed = await fetchRegistryBundle(server([pkg()]), pkg(), cache, fakeFetch(() => new Response('no', { status: 500 })).doFetch);
    expect(failed).toEqual({ error: `${URL_}: could not download the bundle: the server answered 500; nothing was installed` });
    const huge = await fetchRegistryBundle(server([pkg()]), pkg(), cache, fakeFetch(() => new Response(content, { headers: { 'content-length': String(600 * 1024 * 1024) } })).doFetch);
    expect(huge).toMatchObject({ error: expect.stringContaining('more than the 512 MiB a bundle may have') });
    expect(readdirSync(cache)).toEqual([]);
  });

  it('refuses, without fetching, a package with no valid fileSha256 or an identifier that is not an http(s) URL', async () => {
    const cache = tempDir();
    const { doFetch, calls } = fakeFetch();
    expect(await fetchRegistryBundle(server([pkg()]), pkg({ fileSha256: undefined }), cache, doFetch)).toEqual({ error: 'io.example/tiny: its mcpb package gives no valid fileSha256 (the SHA-256 the bundle must have), so it cannot be checked; not installed' });
    expect(await fetchRegistryBundle(server([pkg()]), pkg({ fileSha256: 'abc' }), cache, doFetch)).toMatchObject({ error: expect.stringContaining('no valid fileSha256') });
    expect(await fetchRegistryBundle(server([pkg()]), pkg({ identifier: 'file:///etc/passwd' }), cache, doFetch)).toEqual({ error: 'io.example/tiny: its mcpb package\'s identifier must be the bundle\'s http(s) URL (got "file:///etc/passwd"); not installed' });
    expect(calls).toEqual([]);
  });
});

describe('registryBundlePackage', () => {
  it('is the mcpb package only when there is no npm or PyPI one', () => {
    const npm: RegistryPackage = { registryType: 'npm', identifier: '@acme/x', environmentVariables: [] };
    expect(registryBundlePackage(server([pkg()]))).toEqual(pkg());
    expect(registryBundlePackage(server([pkg(), npm]))).toBeUndefined();
    expect(registryBundlePackage(server([npm]))).toBeUndefined();
  });
});
