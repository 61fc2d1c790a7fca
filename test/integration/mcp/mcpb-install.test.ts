// `.mcpb` bundles (issue #22, "installed in one step"): bundles packed here with the real mcpb CLI,
// installed with `tooldesk mcp install`: the manifest shown, another platform refused, a sensitive
// setting kept in the keychain only (the server still receives it), a directory setting made its
// root and writable folder, updated by a newer version, uninstalled with its files and secret.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHeadlessKeyring, type HeadlessKeyring } from '../../support/headless-keyring.ts';
import { acmeManifest, packBundle } from '../../support/pack-mcpb.ts';
import { removeScratch, repoRoot, scratchInCheckout } from '../../support/run-cli.ts';

const BIN = join(repoRoot, 'electron/cli/bin.mjs');

let keyring: HeadlessKeyring | undefined;
beforeAll(() => {
  keyring = startHeadlessKeyring();
});
afterAll(() => {
  keyring?.stop();
  removeScratch();
});

/** Acme Weather (pack-mcpb.ts: server-everything, whose get-env tool shows what env it got). */
const pack = (version: string, extra: Record<string, unknown> = {}): string => packBundle({ ...acmeManifest(version), ...extra }, `acme-${version}.mcpb`);

function cli(home: string, args: string[], input = '') {
  const env = { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: join(home, '.tooldesk'), TOOLDESK_SECRET_SERVICE: `Tooldesk-mcpb-${process.pid}`, ...keyring?.env };
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd: home, env, input, encoding: 'utf8', timeout: 90_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}
const settingsText = (home: string) => readFileSync(join(home, '.tooldesk', 'settings.json'), 'utf8');

describe('tooldesk mcp install FILE.mcpb', () => {
  it('shows the manifest, keeps the sensitive key in the keychain only, runs it; updates; uninstalls', () => {
    if (!keyring) return expect.fail('dbus-daemon and gnome-keyring-daemon are needed for this test');
    const home = scratchInCheckout('td-mcpb-home-');
    const workspace = join(home, 'acme-data');
    mkdirSync(workspace);
    const bundle = pack('1.0.0');

    const missing = cli(home, ['mcp', 'install', bundle, '--yes']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('"api_key" (API key) is required: give it with --config api_key=VALUE');

    const installed = cli(home, ['mcp', 'install', bundle, '--config', 'api_key=acme-secret-42', '--config', `workspace=${workspace}`, '--yes']);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain('Acme Weather 1.0.0 by Acme Labs <dev@acme.example>');
    expect(installed.stdout).toContain('tools: echo, get-env');
    expect(installed.stdout).toContain('prompts: forecast');
    expect(installed.stdout).toContain('privacy policies: https://acme.example/privacy');
    expect(installed.stdout).toContain('signature: unsigned');
    expect(installed.stdout).toContain('setting api_key (string, required, sensitive: kept in the keychain): API key');
    expect(installed.stdout).toContain(`installed "acme-weather" (acme-weather 1.0.0) in ${join(home, '.tooldesk', 'mcpb', 'acme-weather')}; switched on`);
    expect(settingsText(home)).not.toContain('acme-secret-42');
    const entry = JSON.parse(settingsText(home)).mcpServers['acme-weather'];
    expect(entry.env).toEqual({ ACME_API_KEY: '${secret:mcp.acme-weather.api_key}', ACME_UNITS: 'metric' });
    expect(entry.args).toEqual([join(home, '.tooldesk', 'mcpb', 'acme-weather', 'server', 'index.js'), workspace]);
    expect(entry.roots).toEqual([workspace]);
    expect(entry.writable).toEqual([workspace]);
    expect(cli(home, ['secrets', 'has', 'mcp.acme-weather.api_key']).code).toBe(0);

    const env = cli(home, ['tools', 'run', 'acme-weather__get-env', '--yes']);
    expect(env.code, env.stderr).toBe(0);
    expect(env.stdout).toContain('acme-secret-42');
    expect(env.stdout).toContain('metric');

    const update = cli(home, ['mcp', 'install', pack('1.1.0'), '--config', 'api_key=acme-secret-43', '--config', `workspace=${workspace}`, '--yes']);
    expect(update.stdout).toContain('updated "acme-weather" (acme-weather 1.1.0)');
    expect(JSON.parse(settingsText(home)).mcpServers['acme-weather'].bundle.version).toBe('1.1.0');

    const removed = cli(home, ['mcp', 'remove', 'acme-weather']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('deleted mcp.acme-weather.api_key from the keychain');
    expect(existsSync(join(home, '.tooldesk', 'mcpb', 'acme-weather'))).toBe(false);
    expect(cli(home, ['secrets', 'has', 'mcp.acme-weather.api_key']).code).not.toBe(0);
  }, 240_000);

  it('refuses a bundle for another platform, a clash of names, and a file that is not a bundle', () => {
    const home = scratchInCheckout('td-mcpb-home-');
    const other = process.platform === 'win32' ? 'darwin' : 'win32';
    const foreign = cli(home, ['mcp', 'install', pack('1.0.0', { compatibility: { platforms: [other] } }), '--yes']);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain(`the bundle is for ${other}, not this machine (${process.platform}); not installed`);
    expect(existsSync(join(home, '.tooldesk', 'mcpb', 'acme-weather'))).toBe(false);

    cli(home, ['mcp', 'add', 'acme-weather', '--', 'node', 'x.js']);
    const clash = cli(home, ['mcp', 'install', pack('1.0.0'), '--yes']);
    expect(clash.stderr).toContain('a server named "acme-weather" already exists; choose another name with --name NAME');

    const junk = join(home, 'junk.mcpb');
    writeFileSync(junk, 'not a zip');
    const bad = cli(home, ['mcp', 'install', junk, '--yes']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/junk\.mcpb: /);
  }, 120_000);
});
