// Settings → Tool groups → Valves in Chromium against the real runtime: an Open WebUI toolkit
// dropped into the tools folder shows its Valves and UserValves, a bad value is refused with the
// field named, saved values reach the next call and stay out of the chat; a notification event
// is a toast; an HTMLResponse page shows in the MCP App frame.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { appFrame, lastCall, openPanel, send, waitForStatus } from './support/chat-page.ts';
import { repoRoot } from '../support/run-cli.ts';
import { screenshot } from './support/screenshots.ts';
import { seriousViolations } from './support/axe.ts';
import { realPython } from '../support/real-python.ts';

let app: E2EApp;
let page: Page;

beforeAll(async () => {
  app = await startE2EApp({ settings: { pythonPath: realPython(), groupDefaults: { script: true, owui_demo: true, owui_asks: true, owui_page: true }, permissionOverrides: { greet: { executionPolicy: 'auto' }, ask_name: { executionPolicy: 'auto' }, confirm_delete: { executionPolicy: 'auto' }, slow_count: { executionPolicy: 'auto' }, chart: { executionPolicy: 'auto' } } } });
  ({ page } = app);
  // Dropped in while the app runs: the watcher loads it.
  cpSync(join(repoRoot, 'test/fixtures/tools/open-webui-demo'), join(app.home, 'tools'), { recursive: true });
  cpSync(join(repoRoot, 'test/fixtures/tools/open-webui-html'), join(app.home, 'tools'), { recursive: true });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('Open WebUI valves in Settings', () => {
  it('shows the fields, refuses a bad value by name, and saved values reach the next call', async () => {
    await openPanel(page, 'settings');
    const group = page.locator('[data-testid="group-item"][data-group="owui_demo"]');
    await group.waitFor({ timeout: 30_000 });
    await group.getByRole('button', { name: 'Valves' }).click();
    const form = page.getByTestId('valves-owui_demo');
    await form.getByLabel(/GREETING/).waitFor();
    expect(await form.getByLabel(/SERVICE_API_KEY/).getAttribute('type')).toBe('password');
    expect(await form.getByLabel(/GREETING/).inputValue()).toBe('Hello');

    await form.getByLabel(/REPEAT/).fill('lots');
    await form.getByRole('button', { name: 'Save Valves' }).click();
    await page.getByText('REPEAT expects an integer, got "lots"').waitFor();

    await form.getByLabel(/REPEAT/).fill('2');
    await form.getByLabel(/GREETING/).fill('Howdy');
    await form.getByRole('button', { name: 'Save Valves' }).click();
    await page.waitForFunction(() => {
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.includes('Save Valves'));
      return button?.disabled === true;
    });
    await form.getByLabel(/NICKNAME/).fill('Bob');
    await form.getByRole('button', { name: 'Save Your UserValves' }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('button')].find((b) => b.textContent?.includes('Save Your UserValves'))?.disabled === true);
    expect(JSON.parse(readFileSync(join(app.home, 'tool-valves.json'), 'utf8'))).toMatchObject({ owui_demo: { valves: { GREETING: 'Howdy', REPEAT: 2 }, userValves: { NICKNAME: 'Bob' } } });

    await send(page, '/greet {"name": "Ada"}');
    await waitForStatus(lastCall(page), 'done');
    await lastCall(page).getByTestId('tool-result').locator('summary').click();
    await expect(lastCall(page).getByTestId('tool-result').textContent()).resolves.toContain('Howdy, Ada (from Bob as admin) Howdy, Ada (from Bob as admin)');
  }, 120_000);

  it('__event_call__ input and confirmation become inline cards in the chat of the call', async () => {
    await send(page, '/ask_name {}');
    const card = page.getByTestId('mcp-ask');
    await card.waitFor({ timeout: 30_000 });
    await expect(card.textContent()).resolves.toContain('Who are you?');
    await expect(card.getByRole('heading').textContent()).resolves.toBe('ask_name (owui_asks) asks for information');
    await card.locator('[data-field="value"]').fill('Grace');
    await card.getByRole('button', { name: 'Send' }).click();
    await waitForStatus(lastCall(page), 'done');
    await lastCall(page).getByTestId('tool-result').locator('summary').click();
    await expect(lastCall(page).getByTestId('tool-result').textContent()).resolves.toContain("hello 'Grace'");

    await send(page, '/confirm_delete {"path": "notes.txt"}');
    const confirm = page.getByTestId('mcp-ask').last();
    await confirm.getByText('Delete notes.txt?').waitFor({ timeout: 30_000 });
    // Issue 36 §7: a confirmation names the tool that asks and is answered Confirm/Cancel.
    await expect(confirm.getByRole('heading').textContent()).resolves.toBe('confirm_delete (owui_asks) asks you to confirm');
    expect(await confirm.getByRole('button').allTextContents()).toEqual(['Confirm', 'Cancel']);
    expect(await seriousViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await waitForStatus(lastCall(page), 'done');
    await lastCall(page).getByTestId('tool-result').locator('summary').click();
    await expect(lastCall(page).getByTestId('tool-result').textContent()).resolves.toContain('kept notes.txt (False)');
  }, 120_000);

  it('a notification event shows as a toast over the chat, and its close button takes it away', async () => {
    await send(page, '/slow_count {"upto": 1}');
    const toast = page.getByTestId('tool-toast');
    await toast.waitFor({ timeout: 30_000 });
    await expect(toast.textContent()).resolves.toBe('slow_count: counted');
    expect(await toast.getAttribute('data-level')).toBe('info');
    await screenshot(page, 'e2e-open-webui-toast');
    await toast.getByRole('button', { name: 'Dismiss' }).click();
    await toast.waitFor({ state: 'detached' });
  }, 120_000);

  it('an HTMLResponse page shows in the chat in the MCP App frame, and keeps running past the heartbeat', async () => {
    await send(page, '/chart {"title": "Quarterly sales"}');
    const call = lastCall(page);
    await waitForStatus(call, 'done');
    const block = call.getByTestId('mcp-app');
    await block.waitFor({ timeout: 20_000 });
    const frame = await appFrame(page, 'Quarterly sales');
    expect(await frame.evaluate(() => document.querySelector('h1')?.textContent)).toBe('Quarterly sales');
    await screenshot(page, 'e2e-open-webui-html');
    // The same sandbox as an MCP server's app: another origin, no same-origin, no network.
    const outer = await block.locator('iframe').evaluate((f: HTMLIFrameElement) => ({ src: f.src, sandbox: f.getAttribute('sandbox') }));
    expect(new URL(outer.src).origin).not.toBe(new URL(page.url()).origin);
    expect(outer.sandbox).toBe('allow-scripts allow-forms');
    // Past the first heartbeat (10 s): the page answers pings, so it is not stopped as stuck.
    await page.waitForTimeout(16_000);
    expect(await call.getByTestId('mcp-app-stopped').count()).toBe(0);
    expect(await block.locator('iframe').count()).toBe(1);
  }, 120_000);
});
