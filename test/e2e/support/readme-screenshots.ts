// Regenerates the README's screenshots (resources/screenshots/*.png) from the real app in
// browser mode, with the fake model:  node --import tsx test/e2e/support/readme-screenshots.ts
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { fakeTurn, startFakeOpenAI, type FakeScript } from '../../support/fake-openai-server.ts';
import { startAppServer } from './app-server.ts';
import { launchBrowser } from './browser.ts';
import { makeHome } from './e2e-home.ts';
import { ensureRendererBuilt } from './renderer-build.ts';
import { openPanel, send } from './chat-page.ts';
import { EVERYTHING } from '../../support/mcp-servers.ts';
import { startFixtureRegistry } from '../../support/fixture-registry.ts';

const BASIC_APP = fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js', import.meta.url));
/** `node … readme-screenshots.ts NAME`: only NAME.png is written (the other scenes still run). */
const only = process.argv[2];

const OUT = fileURLToPath(new URL('../../../resources/screenshots/', import.meta.url));

const script: FakeScript = (request) => {
  const messages: Array<{ role: string; content: unknown }> = request.body.messages;
  const last = messages.at(-1);
  const said = String(last?.content ?? '');
  if (last?.role === 'tool' && String(last.content).startsWith('echo:')) return fakeTurn.text(`The echo tool answered: *${String(last.content).slice(6)}*`);
  if (last?.role === 'tool' && String(last.content).includes('The sum of')) return fakeTurn.text('The **everything** server says: 20 + 22 = **42**.');
  if (last?.role === 'tool' && String(last.content).includes('"time"')) return fakeTurn.text('The clock server shows its time in the app above; press **Get Server Time** to ask it again.');
  if (/what time/.test(said)) return { text: 'I will ask the clock server.', toolCalls: [{ name: 'clock__get-time', arguments: '{}' }] };
  if (last?.role === 'tool') {
    return fakeTurn.text(
      'The log has **2 000 lines**. The first ones look like this:\n\n```text\nline 1 of 2000: the quick brown fox\nline 2 of 2000: the quick brown fox\n```\n\nThe full output is in the variable named in the tool block.',
    );
  }
  if (/add up/.test(said)) return { text: 'I will ask the `everything` MCP server.', toolCalls: [{ name: 'everything__get-sum', arguments: '{"a": 20, "b": 22}' }] };
  if (/log/.test(said)) return { text: 'Let me print the log with the `big` tool.', toolCalls: [{ name: 'script_big', arguments: '{"lines": 2000}' }] };
  if (/echo/.test(said)) return { text: 'I will ask the **echo** tool first.', toolCalls: [{ name: 'script_echo', arguments: JSON.stringify({ text: 'Hello from Tooldesk!' }) }] };
  return fakeTurn.text('Hello! Ask me to use one of your tools.');
};

async function shot(page: Page, name: string) {
  if (only && only !== name) return;
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${OUT}${name}.png` });
  console.log(`saved resources/screenshots/${name}.png`);
}

await ensureRendererBuilt();
// The model list states a window (the context meter draws its bar); the first exchange gets a title.
const fake = await startFakeOpenAI({ script, modelFields: { 'fake-model': { context_length: 131_072 } }, title: 'Log length and a greeting' });
const home = makeHome({ providerUrl: fake.url });
const server = await startAppServer({ home });
const browser = await launchBrowser({ width: 1280, height: 760 });
try {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.getByTestId('composer').waitFor();

  await send(page, 'How long is the log? Print it with a tool.');
  await page.locator('[data-testid="assistant-message"]', { hasText: 'full output' }).waitFor();
  await send(page, 'Now echo a greeting, please.');
  await page.getByTestId('execution-approval').waitFor();
  await shot(page, 'chat-approval');

  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'chat-approval-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByTestId('execution-approval').getByRole('button', { name: 'Approve once' }).click();

  await openPanel(page, 'settings');
  await page.locator('[data-testid="group-item"][data-group="script"] button.link').click();
  // Settings is a page: its section list picks the section.
  await page.getByTestId('settings-nav').getByRole('button', { name: 'Tool groups' }).click();
  await shot(page, 'settings-groups');
  await page.getByTestId('tab-settings').click();

  await page.getByTestId('tool-call').first().getByRole('button', { name: 'Open full result' }).click();
  await page.getByTestId('variable-viewer').waitFor();
  await page.getByTestId('variable-value').waitFor();
  await shot(page, 'variables-panel');

  // An MCP server added in Settings, switched on, and one of its tools called from the chat.
  await page.getByTestId('new-session').click();
  // A new chat is a draft until its first message (it is listed once stored).
  await page.getByTestId('chat-draft').waitFor();
  await openPanel(page, 'settings');
  const mcp = page.getByTestId('mcp-section');
  await mcp.getByTestId('mcp-add-open').click();
  await mcp.getByTestId('mcp-add-name').fill('everything');
  await mcp.getByTestId('mcp-add-target').fill(`node ${EVERYTHING} stdio`);
  await mcp.getByTestId('mcp-add-submit').click();
  await mcp.getByTestId('mcp-toggle-everything').check();
  await mcp.getByTestId('mcp-state').filter({ hasText: /^ready with/ }).waitFor({ timeout: 30_000 });
  await send(page, 'Please add up 20 and 22.');
  await page.getByTestId('execution-approval').waitFor();
  await page.getByTestId('execution-approval').getByRole('button', { name: 'Approve once' }).click();
  await page.locator('[data-testid="assistant-message"]', { hasText: '= 42' }).waitFor({ timeout: 15_000 }).catch(async (e) => { await page.screenshot({ path: '/tmp/mcp-fail.png' }); throw e; });
  // The Variables panel of the previous chat may have complained about its variable: not part of this picture.
  const dismiss = page.getByRole('button', { name: 'Dismiss' });
  if (await dismiss.count()) await dismiss.click();
  await shot(page, 'mcp-tool-call');

  // An MCP App: the example server's clock in the tool-call block, and the call it made.
  await page.getByTestId('new-session').click();
  await page.getByTestId('chat-draft').waitFor();
  await openPanel(page, 'settings');
  await mcp.getByTestId('mcp-add-open').click();
  await mcp.getByTestId('mcp-add-name').fill('clock');
  await mcp.getByTestId('mcp-add-target').fill(`node ${BASIC_APP} --stdio`);
  await mcp.getByTestId('mcp-add-submit').click();
  await mcp.getByTestId('mcp-toggle-clock').check();
  await mcp.locator('[data-server="clock"]').getByTestId('mcp-state').filter({ hasText: /^ready with/ }).waitFor({ timeout: 30_000 });
  await page.getByTestId('tab-settings').click();
  await send(page, 'what time is it on the server?');
  await page.getByTestId('execution-approval').getByRole('button', { name: 'Approve once' }).click();
  await page.getByTestId('mcp-app-show').click();
  const appFrame = async () => {
    for (;;) {
      const frame = page.frames().find((f) => /\/app\/[A-Za-z0-9_-]+$/.test(f.url()));
      if (frame && (await frame.evaluate(() => /\d{4}-/.test(document.getElementById('server-time')?.textContent ?? '')).catch(() => false))) return frame;
      await page.waitForTimeout(100);
    }
  };
  const clock = await appFrame();
  await clock.evaluate(() => (document.getElementById('get-time-btn') as HTMLButtonElement).click());
  // The untrusted server's tools ask once per chat: the app's own call is listed under it, marked.
  await page.getByTestId('from-app').waitFor();
  await page.getByTestId('mcp-app').scrollIntoViewIfNeeded();
  await shot(page, 'mcp-app');

  // Browse servers: a registry (a fixture here) searched, one server's details before Install.
  const registry = await startFixtureRegistry([
    {
      name: 'io.github.acme/weather',
      title: 'Acme Weather',
      description: 'Forecasts and alerts for any city, from Acme’s weather service.',
      version: '1.2.0',
      packages: [{ registryType: 'npm', identifier: '@acme/weather-mcp', version: '1.2.0', environmentVariables: [{ name: 'WEATHER_API_KEY', description: 'Your Acme API key', isRequired: true, isSecret: true }, { name: 'WEATHER_UNITS', description: 'metric or imperial' }] }],
    },
    { name: 'com.example/weather-history', title: 'Weather History', description: 'Past observations', version: '0.3.1', remotes: [{ type: 'streamable-http', url: 'https://history.example.com/mcp', headers: [] }] },
  ]);
  try {
    await openPanel(page, 'settings');
    await mcp.getByTestId('mcp-browse-open').click();
    const browse = mcp.getByTestId('mcp-browse');
    await browse.getByTestId('mcp-browse-url').fill(registry.url);
    await browse.getByTestId('mcp-browse-text').fill('weather');
    await browse.getByTestId('mcp-browse-search').click();
    await browse.locator('[data-name="io.github.acme/weather"]').click();
    await browse.getByTestId('mcp-browse-details').waitFor();
    // Scroll the Settings column only (scrollIntoView would shift the whole window too).
    await page.getByTestId('settings-body').evaluate((el) => {
      const view = document.querySelector('[data-testid="mcp-browse"]') as HTMLElement;
      el.scrollTop += view.getBoundingClientRect().top - el.getBoundingClientRect().top - 8;
    });
    await shot(page, 'mcp-browse');
  } finally {
    await registry.close();
  }
} finally {
  await browser.close();
  await server.stop();
  await fake.close();
  rmSync(home, { recursive: true, force: true });
}
