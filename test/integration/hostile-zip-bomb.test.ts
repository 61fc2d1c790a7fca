// Issue 32 §10: a `.mcpb` that holds 2 GiB of zeros in 2 MB is refused before the manifest is
// shown, from its zip directory alone (entry count, total size, ratio), by `mcp install`, by the
// app's install screen and through a registry's mcpb package; a zip that lies about its sizes in
// that directory is stopped while it unpacks (after the yes), at the size it declared. Memory and
// disk stay small: measured on the real CLI with /usr/bin/time and on the app's service in-process.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpInstallService } from '../../electron/runtime/host/services/mcp-install-service.ts';
import { openSettingsStore } from '../../electron/runtime/store/settings-store.ts';
import { startFixtureRegistry, type FixtureRegistry } from '../support/fixture-registry.ts';
import { repoRoot } from '../support/run-cli.ts';
import { tempHomes } from '../support/temp-homes.ts';
import { writeZipBomb } from '../support/zip-bomb.ts';

const BIN = join(repoRoot, 'electron/cli/bin.mjs');
const MANIFEST = {
  manifest_version: '0.3',
  name: 'zeros',
  version: '1.0.0',
  description: 'Nothing but zeros',
  author: { name: 'Nobody' },
  server: { type: 'node', entry_point: 'server/index.js', mcp_config: { command: 'node', args: ['${__dirname}/server/index.js'] } },
};
const PEAK_MB = 250;
const DISK_MB = 16;

/** Bytes under `dir` (files only), without following links. */
function bytesUnder(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
}

describe('a .mcpb zip bomb', () => {
  const homes = tempHomes();
  const work = mkdtempSync(join(tmpdir(), 'td-zip-bomb-'));
  const bomb = join(work, 'zeros.mcpb');
  const liar = join(work, 'liar.mcpb');
  let bombBytes = 0;
  let registry: FixtureRegistry;
  let files: Server;

  beforeAll(async () => {
    bombBytes = writeZipBomb(bomb, MANIFEST, { zerosMiB: 2048 });
    // 256 MiB of zeros declared as 4 MiB: its directory passes every bound.
    writeZipBomb(liar, MANIFEST, { zerosMiB: 256, declaredBytes: 4 * 1024 * 1024 });
    const data = readFileSync(bomb);
    files = createServer((_req, res) => res.end(data));
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(files.address() as { port: number }).port}/zeros.mcpb`;
    registry = await startFixtureRegistry([{ name: 'io.github.evil/zeros', version: '1.0.0', packages: [{ registryType: 'mcpb', identifier: url, fileSha256: createHash('sha256').update(data).digest('hex') }] }]);
  }, 120_000);

  afterAll(async () => {
    await registry.close();
    await new Promise<void>((resolve) => files.close(() => resolve()));
    homes.removeAll();
  });

  function install(file: string) {
    const home = homes.make();
    const run = spawnSync('/usr/bin/time', ['-f', 'maxrss=%M', process.execPath, BIN, 'mcp', 'install', file, '--yes'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: home },
      encoding: 'utf8',
      timeout: 120_000,
    });
    const peakMb = Number(/maxrss=(\d+)/.exec(run.stderr)?.[1]) / 1024;
    const servers = existsSync(join(home, 'settings.json')) ? Object.keys(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')).mcpServers ?? {}) : [];
    return { run, peakMb, writtenMb: bytesUnder(home) / 1024 / 1024, servers, home };
  }

  it('`mcp install --yes` refuses 2 GiB of zeros in 2 MB from its zip directory: nothing unpacked, memory small', () => {
    expect(bombBytes).toBeLessThan(4 * 1024 * 1024);
    const { run, peakMb, writtenMb, servers } = install(bomb);
    console.log(`hostile zip bomb: ${(bombBytes / 1024 / 1024).toFixed(1)} MB holding 2048 MiB: mcp install peak ${peakMb.toFixed(0)} MB, ${writtenMb.toFixed(2)} MB written`);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/zeros\.mcpb: server\/zeros\.bin unpacks to 2048 MiB from \d+ bytes \(more than 100 times its packed size: a zip bomb\?\); nothing was unpacked/);
    expect(servers).toEqual([]);
    expect(peakMb).toBeLessThan(PEAK_MB);
    expect(writtenMb).toBeLessThan(DISK_MB);
  }, 150_000);

  it('a zip that lies about its sizes is shown, then stopped while it unpacks after the yes, at the size it declared', () => {
    const { run, peakMb, writtenMb, servers, home } = install(liar);
    console.log(`hostile zip bomb (lying sizes): mcp install peak ${peakMb.toFixed(0)} MB, ${writtenMb.toFixed(2)} MB written`);
    expect(run.stdout).toContain('zeros 1.0.0 by Nobody');
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain('server/zeros.bin unpacks to more than the 4194304 bytes its zip directory declares (a zip bomb?); nothing was installed');
    expect(servers).toEqual([]);
    expect(peakMb).toBeLessThan(PEAK_MB);
    expect(writtenMb).toBeLessThan(DISK_MB);
    expect(existsSync(join(home, 'mcpb', 'zeros'))).toBe(false);
    expect(readdirSync(join(home, 'mcpb')).filter((f) => f.startsWith('.staging-'))).toEqual([]);
  }, 150_000);

  it('the app’s install screen and a registry’s mcpb package refuse it too, in bounded memory', async () => {
    const home = homes.make();
    const settings = openSettingsStore(home);
    settings.set('mcpRegistry', { url: registry.url });
    const service = createMcpInstallService({ home, settings, secrets: { set: async () => {}, exists: async () => false }, secretBackend: async () => 'keyring', list: () => [] });
    const before = process.resourceUsage().maxRSS;
    await expect(service.openBundle('zeros.mcpb', readFileSync(bomb).toString('base64'))).rejects.toThrow(/^zeros\.mcpb: server\/zeros\.bin unpacks to 2048 MiB .*a zip bomb\?\); nothing was unpacked$/);
    await expect(service.openRegistryBundle('io.github.evil/zeros')).rejects.toThrow(/unpacks to 2048 MiB .*a zip bomb\?/);
    const grewMb = (process.resourceUsage().maxRSS - before) / 1024;
    console.log(`hostile zip bomb (app, registry): peak grew ${grewMb.toFixed(0)} MB`);
    expect(grewMb).toBeLessThan(PEAK_MB);
    // The registry's download is kept in the cache (it matched its SHA-256); nothing else was written.
    expect(bytesUnder(home) - bytesUnder(join(home, 'cache'))).toBeLessThan(DISK_MB * 1024 * 1024);
    expect(Object.keys(settings.get().mcpServers ?? {})).toEqual([]);
    service.close();
  }, 150_000);
});
