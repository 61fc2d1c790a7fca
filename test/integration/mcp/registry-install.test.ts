// An MCP registry (v0.1 API) served by a fixture on 127.0.0.1: `mcp search` prints each server's
// full name, version and kind of package, works offline from its cache (saying how old), and
// `mcp install NAME` adds the latest version as npx -y PKG@VERSION, as a remote HTTP server, or
// (an mcpb package, packed here with the real mcpb CLI and served by the same fixture) as a bundle
// downloaded once and checked against its fileSha256.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packBundle as packFixtureBundle } from '../../support/pack-mcpb.ts';
import { removeScratch, runCli, scratchInCheckout } from '../../support/run-cli.ts';
import { tempHomes } from '../../support/temp-homes.ts';

const homes = tempHomes();
const requests: string[] = [];
const weather = {
  name: 'io.github.acme/weather',
  title: 'Acme Weather',
  description: 'Forecasts for any city',
  version: '1.2.0',
  packages: [{ registryType: 'npm', identifier: '@acme/weather-mcp', version: '1.2.0', transport: { type: 'stdio' }, environmentVariables: [{ name: 'WEATHER_UNITS', description: 'metric or imperial', isRequired: true }] }],
};
const notes = { name: 'com.example/notes', title: 'Notes', version: '0.4.0', remotes: [{ type: 'streamable-http', url: 'https://notes.example.com/mcp', headers: [{ name: 'X-Team', value: 'blue' }] }] };
const bundleOnly = { name: 'org.sample/odd', version: '1.0.0', packages: [{ registryType: 'oci', identifier: 'ghcr.io/sample/odd' }] };
/** A bundle packed with the mcpb CLI (its server is server-everything); its URL is set once the fixture listens. */
function tinyBundle(): Buffer {
  const manifest = {
    manifest_version: '0.3',
    name: 'tiny',
    version: '1.0.0',
    description: 'A tiny bundled server',
    author: { name: 'Acme Labs' },
    server: { type: 'node', entry_point: 'server/index.js', mcp_config: { command: 'node', args: ['${__dirname}/server/index.js'] } },
    tools: [{ name: 'echo', description: 'Echo' }],
  };
  return readFileSync(packFixtureBundle(manifest, 'tiny.mcpb'));
}
let bundle: Buffer = Buffer.alloc(0);
let bundleSha = '';
const otherSha = createHash('sha256').update('another file').digest('hex');
const mcpbPackage = (fileSha256?: string) => ({ registryType: 'mcpb', identifier: '', version: '1.0.0', transport: { type: 'stdio' }, ...(fileSha256 ? { fileSha256 } : {}) });
const tiny = { name: 'io.github.acme/tiny-bundle', title: 'Tiny bundle', version: '1.0.0', packages: [mcpbPackage()] };
const tampered = { name: 'io.github.acme/tampered', version: '1.0.0', packages: [mcpbPackage(otherSha)] };
const unhashed = { name: 'io.github.acme/unhashed', version: '1.0.0', packages: [mcpbPackage()] };
const all = [weather, notes, bundleOnly, tiny, tampered, unhashed];

let server: Server;
let base = '';
beforeAll(async () => {
  bundle = tinyBundle();
  bundleSha = createHash('sha256').update(bundle).digest('hex');
  tiny.packages[0]!.fileSha256 = bundleSha;
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/bundles/tiny.mcpb') {
      res.setHeader('content-type', 'application/octet-stream');
      return res.end(bundle);
    }
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/v0.1/servers') {
      const q = (url.searchParams.get('search') ?? '').toLowerCase();
      return res.end(JSON.stringify({ servers: all.filter((s) => s.name.toLowerCase().includes(q)).map((s) => ({ server: s, _meta: {} })), metadata: { count: 1 } }));
    }
    const latest = /^\/v0\.1\/servers\/(.+)\/versions\/latest$/.exec(url.pathname);
    const found = latest && all.find((s) => s.name === decodeURIComponent(latest[1]!));
    if (found) return res.end(JSON.stringify({ server: found, _meta: {} }));
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  for (const entry of [tiny, tampered, unhashed]) entry.packages[0]!.identifier = `${base}/bundles/tiny.mcpb`;
}, 90_000);
afterAll(async () => {
  await new Promise((r) => server.close(r));
  homes.removeAll();
  removeScratch();
});

const settingsOf = (home: string) => JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'));

describe('an MCP registry (v0.1)', () => {
  it('search prints name, version and kind; answers from the cache (with its age) when the registry is down', async () => {
    const home = homes.make();
    const none = await runCli(home, ['mcp', 'search', 'weather']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no registry: give --registry URL');
    expect((await runCli(home, ['config', 'set', 'mcpRegistry.url', JSON.stringify(base)])).code).toBe(0);
    const found = await runCli(home, ['mcp', 'search', 'weather']);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain('io.github.acme/weather  1.2.0  [npm]  Acme Weather');
    expect(found.stdout).not.toContain('com.example/notes');
    expect(requests).toContain('/v0.1/servers?search=weather');

    // A registry that goes away: the same search answers from the cache and says how old it is.
    const brief = createServer((_req, res) => res.end(JSON.stringify({ servers: [{ server: notes }] })));
    await new Promise<void>((r) => brief.listen(0, '127.0.0.1', () => r()));
    const briefUrl = `http://127.0.0.1:${(brief.address() as { port: number }).port}`;
    expect((await runCli(home, ['mcp', 'search', 'notes', '--registry', briefUrl])).stdout).toContain('com.example/notes  0.4.0  [remote]  Notes');
    await new Promise((r) => brief.close(r));
    const down = await runCli(home, ['mcp', 'search', 'notes', '--registry', briefUrl]);
    expect(down.code).toBe(0);
    expect(down.stdout).toContain('com.example/notes  0.4.0  [remote]  Notes');
    expect(down.stderr).toMatch(/the registry could not be reached; these results are from the cache, \d+ s old/);
    const never = await runCli(home, ['mcp', 'search', 'other', '--registry', briefUrl]);
    expect(never.code).toBe(1);
    expect(never.stderr).toContain('(and no cached answer)');
  }, 60_000);

  it('install NAME: npm as npx -y PKG@VERSION with its variables; a remote as an HTTP server; switched on', async () => {
    const home = homes.make();
    const missing = await runCli(home, ['mcp', 'install', 'io.github.acme/weather', '--registry', base, '--yes']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('io.github.acme/weather needs WEATHER_UNITS: give --config WEATHER_UNITS=VALUE');
    const npm = await runCli(home, ['mcp', 'install', 'io.github.acme/weather', '--registry', base, '--config', 'WEATHER_UNITS=metric', '--yes']);
    expect(npm.code, npm.stderr).toBe(0);
    expect(npm.stdout).toContain('installed "weather" (io.github.acme/weather 1.2.0); switched on');
    expect(requests).toContain('/v0.1/servers/io.github.acme%2Fweather/versions/latest');
    const settings = settingsOf(home);
    expect(settings.mcpServers.weather).toEqual({ command: 'npx', args: ['-y', '@acme/weather-mcp@1.2.0'], env: { WEATHER_UNITS: 'metric' }, registry: { name: 'io.github.acme/weather', version: '1.2.0' } });
    expect(settings.groupDefaults.weather).toBe(true);

    const clash = await runCli(home, ['mcp', 'install', 'io.github.acme/weather', '--registry', base, '--config', 'WEATHER_UNITS=metric', '--yes']);
    expect(clash.stderr).toContain('a server named "weather" already exists; choose another name with --name NAME');
    expect((await runCli(home, ['mcp', 'install', 'io.github.acme/weather', '--registry', base, '--config', 'WEATHER_UNITS=metric', '--yes', '--name', 'weather2'])).code).toBe(0);

    const remote = await runCli(home, ['mcp', 'install', 'com.example/notes', '--registry', base, '--yes']);
    expect(remote.code, remote.stderr).toBe(0);
    expect(settingsOf(home).mcpServers.notes).toEqual({ url: 'https://notes.example.com/mcp', headers: { 'X-Team': 'blue' }, registry: { name: 'com.example/notes', version: '0.4.0' } });

    const odd = await runCli(home, ['mcp', 'install', 'org.sample/odd', '--registry', base, '--yes']);
    expect(odd.code).toBe(1);
    expect(odd.stderr).toContain('org.sample/odd has no npm, PyPI or mcpb package and no remote Tooldesk can start (its packages: oci)');
    const unknown = await runCli(home, ['mcp', 'install', 'no.such/server', '--registry', base, '--yes']);
    expect(unknown.stderr).toContain('not found in the registry (404)');
  }, 90_000);

  it('install NAME, an mcpb package: downloaded once, its fileSha256 checked, installed as a bundle that starts', async () => {
    // In the checkout: the sandboxed server imports server-everything from its node_modules.
    const home = scratchInCheckout('td-registry-mcpb-home-');
    const downloads = () => requests.filter((r) => r === '/bundles/tiny.mcpb').length;
    const before = downloads();
    const found = await runCli(home, ['mcp', 'search', 'bundle', '--registry', base]);
    expect(found.stdout).toContain('io.github.acme/tiny-bundle  1.0.0  [mcpb]  Tiny bundle');

    const installed = await runCli(home, ['mcp', 'install', 'io.github.acme/tiny-bundle', '--registry', base, '--yes']);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain(`bundle ${base}/bundles/tiny.mcpb (SHA-256 checked)`);
    expect(installed.stdout).toContain(`installed "tiny-bundle" (tiny 1.0.0) in ${join(home, 'mcpb', 'tiny-bundle')}; switched on`);
    expect(downloads()).toBe(before + 1);
    expect(readdirSync(join(home, 'cache', 'mcpb'))).toEqual([`${bundleSha}.mcpb`]);
    const entry = settingsOf(home).mcpServers['tiny-bundle'];
    expect(entry).toMatchObject({ command: 'node', args: [join(home, 'mcpb', 'tiny-bundle', 'server', 'index.js')], registry: { name: 'io.github.acme/tiny-bundle', version: '1.0.0' } });
    expect(settingsOf(home).groupDefaults['tiny-bundle']).toBe(true);
    const status = await runCli(home, ['mcp', 'list', '--status']);
    expect(status.stdout).toMatch(/^tiny-bundle {2}\(enabled[^\n]*\n {2}ready with \d+ tools/m);

    // Once: a second install takes the checked file from the cache.
    const again = await runCli(home, ['mcp', 'install', 'io.github.acme/tiny-bundle', '--registry', base, '--yes', '--name', 'tiny2']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('(SHA-256 checked, from the cache)');
    expect(downloads()).toBe(before + 1);
  }, 120_000);

  it('install NAME, an mcpb package whose download has another hash (or none given): nothing installed, the download removed', async () => {
    const home = homes.make();
    const bad = await runCli(home, ['mcp', 'install', 'io.github.acme/tampered', '--registry', base, '--yes']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${base}/bundles/tiny.mcpb: the downloaded bundle's SHA-256 is ${bundleSha}, but the registry says ${otherSha} (fileSha256); the download was removed and nothing was installed`);
    expect(readdirSync(join(home, 'cache', 'mcpb'))).toEqual([]);
    expect(existsSync(join(home, 'mcpb', 'tampered'))).toBe(false);
    expect(existsSync(join(home, 'settings.json')) ? settingsOf(home).mcpServers : {}).toEqual({});

    const none = await runCli(home, ['mcp', 'install', 'io.github.acme/unhashed', '--registry', base, '--yes']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('io.github.acme/unhashed: its mcpb package gives no valid fileSha256 (the SHA-256 the bundle must have), so it cannot be checked; not installed');
    expect(existsSync(join(home, 'settings.json')) ? settingsOf(home).mcpServers : {}).toEqual({});
  }, 60_000);
});
