// Installing MCP servers in one step from Settings (issue #22), in Chromium against the real
// runtime with a private keychain: a `.mcpb` packed here with the real mcpb CLI, installed through
// "Install bundle…" with a sensitive field (its value in the keychain only) and by dropping it on
// the window; another platform's bundle refused; "Browse servers" on a fixture registry (details,
// install with a secret header, offline from the cache); a server marked "secret missing" cleared
// from its row. axe-core finds no serious or critical violation in these views.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startHeadlessKeyring, type HeadlessKeyring } from '../support/headless-keyring.ts';
import { startFixtureRegistry, type FixtureRegistry } from '../support/fixture-registry.ts';
import { acmeManifest, packBundle } from '../support/pack-mcpb.ts';
import { removeScratch, runCli } from '../support/run-cli.ts';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { openPanel } from './support/chat-page.ts';
import { seriousViolations } from './support/axe.ts';
import { screenshot } from './support/screenshots.ts';

const weather = {
  name: 'io.github.acme/weather',
  title: 'Acme Weather',
  description: 'Forecasts for any city',
  version: '1.2.0',
  packages: [
    {
      registryType: 'npm',
      identifier: '@acme/weather-mcp',
      version: '1.2.0',
      transport: { type: 'stdio' },
      environmentVariables: [
        { name: 'WEATHER_API_KEY', description: 'Your Acme key', isRequired: true, isSecret: true },
        { name: 'WEATHER_UNITS', description: 'metric or imperial' },
      ],
    },
  ],
};
const notes = {
  name: 'com.example/notes',
  title: 'Team Notes',
  description: 'Shared notes over HTTP',
  version: '0.4.0',
  remotes: [{ type: 'streamable-http', url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'X-Api-Key', description: 'Your notes key', isSecret: true }] }],
};

const SECRET_SERVICE = `Tooldesk-e2e-install-${process.pid}`;
let keyring: HeadlessKeyring | undefined;
let registry: FixtureRegistry;
/** Serves a packed bundle for the registry's mcpb package. */
let files: Server | undefined;
let app: E2EApp;
let page: Page;

beforeAll(async () => {
  keyring = startHeadlessKeyring();
  if (!keyring) throw new Error('dbus-daemon and gnome-keyring-daemon are needed for this test');
  const bytes = readFileSync(packBundle(acmeManifest('1.1.0')));
  files = createServer((req, res) => (req.url === '/acme-1.1.0.mcpb' ? res.end(bytes) : ((res.statusCode = 404), res.end())));
  await new Promise<void>((resolve) => files!.listen(0, '127.0.0.1', resolve));
  const bundled = {
    name: 'io.github.acme/bundled',
    description: 'Acme Weather as a bundle',
    version: '1.1.0',
    packages: [{ registryType: 'mcpb', identifier: `http://127.0.0.1:${(files.address() as { port: number }).port}/acme-1.1.0.mcpb`, fileSha256: createHash('sha256').update(bytes).digest('hex') }],
  };
  registry = await startFixtureRegistry([weather, notes, bundled]);
  app = await startE2EApp({
    env: { ...keyring.env, TOOLDESK_SECRET_SERVICE: SECRET_SERVICE },
    settings: { mcpServers: { gh: { command: 'node', args: ['gh.js'], env: { GITHUB_TOKEN: '${secret:mcp.gh.TOKEN}' }, secretMissing: ['mcp.gh.TOKEN'] } } as never },
  });
  ({ page } = app);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await registry?.close().catch(() => {});
  files?.close();
  keyring?.stop();
  removeScratch();
});

const settingsText = () => readFileSync(join(app.home, 'settings.json'), 'utf8');
const inKeychain = async (name: string) => (await runCli(app.home, ['secrets', 'has', name], '', { ...keyring!.env, TOOLDESK_SECRET_SERVICE: SECRET_SERVICE })).code === 0;
const section = () => page.getByTestId('mcp-section');
const row = (name: string) => section().locator(`[data-testid="mcp-server"][data-server="${name}"]`);

/** Drops `file` on the message box, as a user dragging it from a file manager would. */
async function dropFile(file: string): Promise<void> {
  const transfer = await page.evaluateHandle(
    ({ data, name }) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name));
      return dt;
    },
    { data: readFileSync(file).toString('base64'), name: basename(file) },
  );
  await page.dispatchEvent('[data-testid="composer"]', 'drop', { dataTransfer: transfer });
}

describe('Settings → MCP servers: install in one step', () => {
  it('"Install bundle…": the manifest shown, the sensitive key kept in the keychain only, switched on', async () => {
    const bundle = packBundle(acmeManifest('1.0.0'));
    const workspace = join(app.home, 'acme-data');
    mkdirSync(workspace);
    await openPanel(page, 'settings');
    await section().scrollIntoViewIfNeeded();
    await section().getByTestId('mcp-bundle-file').setInputFiles(bundle);
    const view = section().getByTestId('mcp-bundle');
    await view.waitFor({ timeout: 30_000 });
    await expect(view.locator('#mcp-bundle-title').textContent()).resolves.toMatch(/Acme Weather 1\.0\.0\s*by Acme Labs <dev@acme\.example>/);
    const manifest = (await view.getByTestId('mcp-bundle-manifest').textContent())!;
    for (const part of ['echo, get-env', 'forecast', 'linux, darwin, win32', 'https://acme.example/privacy', 'unsigned']) expect(manifest).toContain(part);
    const key = view.locator('[data-testid="mcp-bundle-field"][data-key="api_key"]');
    await expect(key.textContent()).resolves.toContain('required · kept in the keychain only');
    await expect(key.locator('input').getAttribute('type')).resolves.toBe('password');
    await expect(view.locator('[data-key="units"] input').inputValue()).resolves.toBe('metric');
    expect(await seriousViolations(page)).toEqual([]);

    // A required field left empty is named; nothing is installed.
    await view.getByTestId('mcp-bundle-install').click();
    await expect(view.getByTestId('mcp-bundle-problem').textContent()).resolves.toBe('Fill in API key, Workspace (required).');
    await key.locator('input').fill('acme-secret-42');
    await view.locator('[data-key="workspace"] input').fill(workspace);
    await screenshot(page, 'e2e-mcp-bundle');
    await view.getByTestId('mcp-bundle-install').click();
    await row('acme-weather').waitFor({ timeout: 30_000 });
    await view.waitFor({ state: 'detached' });
    await expect(row('acme-weather').getByTestId('mcp-toggle-acme-weather').isChecked()).resolves.toBe(true);
    await row('acme-weather').getByTestId('mcp-state').filter({ hasText: /^ready with \d+ tools$/ }).waitFor({ timeout: 60_000 });

    const settings = settingsText();
    expect(settings).not.toContain('acme-secret-42');
    const entry = JSON.parse(settings).mcpServers['acme-weather'];
    expect(entry.env).toEqual({ ACME_API_KEY: '${secret:mcp.acme-weather.api_key}', ACME_UNITS: 'metric' });
    expect(entry.writable).toEqual([workspace]);
    expect(await inKeychain('mcp.acme-weather.api_key')).toBe(true);
    expect(existsSync(join(app.home, 'mcpb', 'acme-weather', 'manifest.json'))).toBe(true);
  }, 180_000);

  it('a bundle dropped on the window opens in Settings; another platform\'s is refused; Cancel removes it', async () => {
    await page.keyboard.press('Escape');
    await page.getByTestId('settings-panel').waitFor({ state: 'detached' });
    await dropFile(packBundle({ ...acmeManifest('2.0.0'), name: 'win-only', compatibility: { platforms: ['win32'] } }));
    const view = page.getByTestId('mcp-bundle');
    await view.waitFor({ timeout: 30_000 });
    await expect(page.getByTestId('settings-panel').isVisible()).resolves.toBe(true);
    await expect(view.getByTestId('mcp-bundle-platform').textContent()).resolves.toBe(`It cannot be installed here: the bundle is for win32, not this machine (${process.platform}).`);
    await expect(view.getByTestId('mcp-bundle-install').isDisabled()).resolves.toBe(true);
    // The composer did not take it as an attachment.
    await expect(page.getByTestId('attachment-chip').count()).resolves.toBe(0);
    await view.getByTestId('mcp-bundle-cancel').click();
    await view.waitFor({ state: 'detached' });
    await expect.poll(() => readdirSync(join(app.home, 'mcpb')).filter((f) => f.startsWith('.staging-'))).toEqual([]);

    // A good bundle dropped installs the same way.
    await page.keyboard.press('Escape');
    await dropFile(packBundle({ ...acmeManifest('1.0.0'), name: 'dropped-weather' }));
    const dropped = page.getByTestId('mcp-bundle');
    await dropped.waitFor({ timeout: 30_000 });
    await dropped.locator('[data-key="api_key"] input').fill('dropped-secret-7');
    await dropped.locator('[data-key="workspace"] input').fill(join(app.home, 'acme-data'));
    await dropped.getByTestId('mcp-bundle-install').click();
    await row('dropped-weather').waitFor({ timeout: 30_000 });
    await expect(row('dropped-weather').getByTestId('mcp-toggle-dropped-weather').isChecked()).resolves.toBe(true);
    expect(settingsText()).not.toContain('dropped-secret-7');
    expect(await inKeychain('mcp.dropped-weather.api_key')).toBe(true);
  }, 180_000);

  it('"Browse servers": no registry says so; search, details, install with a secret header; offline from the cache', async () => {
    await openPanel(page, 'settings');
    await section().getByTestId('mcp-browse-open').click();
    const browse = section().getByTestId('mcp-browse');
    await browse.getByTestId('mcp-browse-search').click();
    await expect(browse.getByTestId('mcp-browse-problem').textContent()).resolves.toContain('No registry is set');

    await browse.getByTestId('mcp-browse-url').fill(registry.url);
    await browse.getByTestId('mcp-browse-text').fill('weather');
    await browse.getByTestId('mcp-browse-search').click();
    const result = browse.locator('[data-testid="mcp-browse-result"][data-name="io.github.acme/weather"]');
    await result.waitFor({ timeout: 20_000 });
    await expect(browse.getByTestId('mcp-browse-result').count()).resolves.toBe(1);
    expect(JSON.parse(settingsText()).mcpRegistry.url).toBe(registry.url);
    await result.click();
    const details = browse.getByTestId('mcp-browse-details');
    const text = (await details.textContent())!;
    for (const part of ['Forecasts for any city', '1.2.0', 'npm: @acme/weather-mcp@1.2.0']) expect(text).toContain(part);
    await expect(details.locator('[data-var="WEATHER_API_KEY"]').textContent()).resolves.toContain('(required · secret: kept in the keychain)');
    await expect(details.locator('[data-var="WEATHER_API_KEY"] input').getAttribute('type')).resolves.toBe('password');
    await expect(details.locator('[data-var="WEATHER_UNITS"]').textContent()).resolves.toContain('(optional)');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'e2e-mcp-browse');

    await browse.getByTestId('mcp-browse-text').fill('notes');
    await browse.getByTestId('mcp-browse-search').click();
    await browse.locator('[data-testid="mcp-browse-result"][data-name="com.example/notes"]').click();
    await expect(details.textContent()).resolves.toContain('streamable-http: http://127.0.0.1:9/mcp');
    await details.locator('[data-var="X-Api-Key"] input').fill('notes-secret-3');
    await details.getByTestId('mcp-browse-install').click();
    await row('notes').waitFor({ timeout: 20_000 });
    await expect(row('notes').getByTestId('mcp-toggle-notes').isChecked()).resolves.toBe(true);
    const entry = JSON.parse(settingsText()).mcpServers.notes;
    expect(entry).toMatchObject({ url: 'http://127.0.0.1:9/mcp', headers: { 'X-Api-Key': '${secret:mcp.notes.X-Api-Key}' }, registry: { name: 'com.example/notes', version: '0.4.0' } });
    expect(settingsText()).not.toContain('notes-secret-3');
    expect(await inKeychain('mcp.notes.X-Api-Key')).toBe(true);

    // An mcpb package: downloaded, its SHA-256 checked, and opened like a picked bundle.
    await section().getByTestId('mcp-browse-open').click();
    await browse.getByTestId('mcp-browse-text').fill('bundled');
    await browse.getByTestId('mcp-browse-search').click();
    await browse.locator('[data-testid="mcp-browse-result"][data-name="io.github.acme/bundled"]').click();
    await expect(details.getByTestId('mcp-browse-install').textContent()).resolves.toBe('Download and open bundle');
    await details.getByTestId('mcp-browse-install').click();
    const bundleView = section().getByTestId('mcp-bundle');
    await bundleView.waitFor({ timeout: 30_000 });
    await expect(bundleView.locator('#mcp-bundle-title').textContent()).resolves.toContain('Acme Weather 1.1.0');
    await expect(bundleView.getByTestId('mcp-bundle-name').inputValue()).resolves.toBe('bundled');
    await bundleView.getByTestId('mcp-bundle-cancel').click();
    await bundleView.waitFor({ state: 'detached' });

    // The registry goes away: the same search answers from the cache and says how old it is.
    await registry.close();
    await section().getByTestId('mcp-browse-open').click();
    const again = section().getByTestId('mcp-browse');
    await again.getByTestId('mcp-browse-text').fill('weather');
    await again.getByTestId('mcp-browse-search').click();
    await expect(again.getByTestId('mcp-browse-cached').textContent()).resolves.toMatch(/^The registry could not be reached: these results are from the cache, \d+ seconds old\.$/);
    await again.locator('[data-testid="mcp-browse-result"][data-name="io.github.acme/weather"]').waitFor();
  }, 120_000);

  it('a server marked "secret missing" says what to do; entering the secret clears the mark', async () => {
    await openPanel(page, 'settings');
    const gh = row('gh');
    await gh.scrollIntoViewIfNeeded();
    await expect(gh.getByTestId('mcp-state').textContent()).resolves.toBe('secret missing');
    const item = gh.locator('[data-testid="mcp-secret-missing-item"][data-secret="mcp.gh.TOKEN"]');
    await expect(item.textContent()).resolves.toContain('tooldesk secrets set mcp.gh.TOKEN');
    expect(await seriousViolations(page)).toEqual([]);
    await item.getByLabel('Value of mcp.gh.TOKEN').fill('ghp_from_the_row');
    await item.getByRole('button', { name: 'Save to keychain' }).click();
    await gh.getByTestId('mcp-secret-missing').waitFor({ state: 'detached', timeout: 10_000 });
    await expect(gh.getByTestId('mcp-state').textContent()).resolves.toBe('disabled');
    expect(JSON.parse(settingsText()).mcpServers.gh.secretMissing).toBeUndefined();
    expect(settingsText()).not.toContain('ghp_from_the_row');
    expect(await inKeychain('mcp.gh.TOKEN')).toBe(true);
  }, 60_000);
});
