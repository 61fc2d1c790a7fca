// First run without a model provider: the chat explains how to add one, and tools already
// work by hand (`/tool_name {json}`), with the same inline approval.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe.ts';
import type { Page } from 'playwright-core';
import type { FakeOpenAIServer } from '../support/fake-openai-server.ts';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { screenshot } from './support/screenshots.ts';
import { lastCall, newChat, openPanel, send, waitForStatus } from './support/chat-page.ts';

let app: E2EApp;
let fake: FakeOpenAIServer;
let page: Page;

// The system's folder opener, as the runtime finds it on PATH: this one writes down what it was asked to open.
const opener = mkdtempSync(join(tmpdir(), 'td-opener-'));
const openedLog = join(opener, 'opened.txt');
writeFileSync(join(opener, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${openedLog}'\n`, { mode: 0o755 });

beforeAll(async () => {
  app = await startE2EApp({ provider: false, fake: { apiKey: 'sk-e2e-key', models: ['fake-model', 'other-model'] }, env: { PATH: `${opener}:${process.env.PATH}` } });
  ({ fake, page } = app);
});

afterAll(async () => {
  await app?.close();
  rmSync(opener, { recursive: true, force: true });
});

describe('first run without a provider', () => {
  it('explains how to add a provider while /tool commands already work', async () => {
    const notice = page.getByTestId('first-run');
    await notice.waitFor();
    await expect(notice.textContent()).resolves.toContain('No model provider yet');
    await expect(notice.textContent()).resolves.toContain('/tool_name');

    await send(page, '/script_echo {"text": "no model needed"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    await card.getByRole('button', { name: 'Approve once' }).click();
    await waitForStatus(lastCall(page), 'done');
    await lastCall(page).getByTestId('tool-result').locator('summary').click();
    await expect(lastCall(page).getByTestId('tool-result').textContent()).resolves.toContain('echo: no model needed');
    await screenshot(page, 'e2e-first-run');
  });

  it('names the tools folder (Open folder, New tool), says new groups start off and where to switch them on', async () => {
    const notice = page.getByTestId('first-run');
    await expect(notice.getByTestId('first-run-tools-folder').textContent()).resolves.toBe(join(app.home, 'tools'));
    await expect(notice.getByTestId('first-run-tools').textContent()).resolves.toMatch(/a new group starts off: switch it on under Settings → Tool groups, or for one chat in the Tools menu/);
    await notice.getByTestId('first-run-open-folder').click();
    await expect(notice.getByTestId('first-run-opened').textContent()).resolves.toBe(`Opened ${join(app.home, 'tools')} in your file manager.`);
    await expect.poll(() => (existsSync(openedLog) ? readFileSync(openedLog, 'utf8') : '')).toBe(join(app.home, 'tools'));
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'e2e-first-run-tools');
    // Settings → Tool groups opens Settings at that section.
    await notice.getByRole('button', { name: 'Settings → Tool groups' }).click();
    await expect.poll(() => page.getByTestId('settings-nav').getByRole('button', { name: 'Tool groups' }).getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('Escape');
    // New tool opens the Tools panel on its form.
    await notice.getByTestId('first-run-new-tool').click();
    await page.getByTestId('new-tool-form').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('tools-panel').waitFor({ state: 'detached' });
  });

  it('a Tools menu with none of your own tools on says how to get some', async () => {
    await page.getByTestId('tools-button').click();
    const menu = page.getByTestId('tool-selection');
    expect(await menu.getByTestId('tool-selection-empty').count()).toBe(0);
    await menu.getByRole('button', { name: 'Select none' }).click();
    const hint = menu.getByTestId('tool-selection-empty');
    await expect(hint.textContent()).resolves.toMatch(/^None of your own tools is on for this chat\. .*Settings → Tool groups \(a new group starts off\), or write one: New tool/);
    expect(await seriousViolations(page)).toEqual([]);
    await hint.getByRole('button', { name: 'New tool' }).click();
    await page.getByTestId('new-tool-form').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('tools-button').click();
    await page.getByTestId('tool-selection').getByRole('button', { name: 'Use the global switches' }).click();
    await page.getByTestId('tool-selection').getByTestId('tool-selection-empty').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
  });

  it('adds a provider in Settings: models from /v1/models, a masked key in the keychain, Test, then chat', async () => {
    await page.getByTestId('first-run').getByRole('button', { name: 'Settings → Providers' }).click();
    await page.getByTestId('add-provider').click();
    const editor = page.getByTestId('provider-editor');
    await editor.waitFor();
    await editor.getByLabel('Provider name').fill('Fake OpenAI');
    await editor.getByLabel('Base URL').fill(fake.url);
    await editor.getByLabel('API key').fill('sk-e2e-key');
    await editor.getByRole('button', { name: 'Load models' }).click();
    // After Load models the model is chosen in one control: the Model field, its list open under it.
    const model = editor.getByRole('combobox', { name: 'Model' });
    await expect.poll(() => model.getAttribute('aria-expanded')).toBe('true');
    await expect(model.inputValue()).resolves.toBe('fake-model');
    await expect(editor.getByRole('option').allTextContents()).resolves.toEqual(['fake-model', 'other-model']);
    expect(await editor.locator('select').count()).toBe(0);
    expect(await editor.getByRole('combobox').count()).toBe(1);
    expect(await editor.getByRole('textbox', { name: /model/i }).count()).toBe(0);
    await model.press('ArrowDown');
    await model.press('Enter');
    await expect(model.inputValue()).resolves.toBe('other-model');
    await expect.poll(() => model.getAttribute('aria-expanded')).toBe('false');
    // Typing filters the same list; a click picks.
    await model.fill('fake');
    await expect(editor.getByRole('option').allTextContents()).resolves.toEqual(['fake-model']);
    await editor.getByRole('option', { name: 'fake-model' }).click();
    await expect(model.inputValue()).resolves.toBe('fake-model');
    await model.fill('other');
    await editor.getByRole('option', { name: 'other-model' }).click();
    await expect(model.inputValue()).resolves.toBe('other-model');
    await editor.getByRole('button', { name: 'Test' }).click();
    await editor.getByText(/^OK$/).waitFor();
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.getByText('key stored').waitFor();
    // The key field shows a mask, never the key.
    expect(await editor.getByLabel('API key').inputValue()).not.toContain('sk-e2e');
    await page.getByTestId('first-run').waitFor({ state: 'detached' });
    await screenshot(page, 'e2e-provider-settings');

    // Settings is a page in the chat's place: back to the chat.
    await page.getByTestId('tab-settings').click();
    await send(page, 'hello model');
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: hello model' }).waitFor();
    const last = fake.chatRequests().at(-1)!;
    expect(last.headers.authorization).toBe('Bearer sk-e2e-key');
    expect(last.body.model).toBe('other-model');
  });

  it('no sandbox warning where bubblewrap works; switching the sandbox off shows one that stays until it is back on', async () => {
    await openPanel(page, 'settings');
    // The Settings badge comes from the same appInfo the banner reads.
    await page.getByTestId('settings-panel').locator('.badge.ok', { hasText: 'available' }).waitFor();
    expect(await page.getByTestId('sandbox-banner').count()).toBe(0);

    await page.getByLabel('Sandbox mode').selectOption('off');
    const banner = page.getByTestId('sandbox-banner');
    await banner.waitFor();
    await expect(banner.textContent()).resolves.toContain('The sandbox is off');
    await page.getByRole('button', { name: 'Close settings' }).click();
    await newChat(page);
    expect(await banner.isVisible()).toBe(true);
    await screenshot(page, 'e2e-sandbox-banner');

    await banner.getByRole('button', { name: 'Sandbox settings' }).click();
    await page.getByLabel('Sandbox mode').selectOption('auto');
    await banner.waitFor({ state: 'detached' });
  });
});
