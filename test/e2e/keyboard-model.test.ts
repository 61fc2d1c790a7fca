// Issue 25 in Chromium: the keyboard model of a desktop app. Esc closes the top layer only and
// never ends a turn that waits for the user; New chat puts the cursor in the message box; the
// session list is one tab stop; sending during a turn queues the message.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { answerDialog, lastCall, newChat, openPanel, send, waitForStatus } from './support/chat-page.ts';
import { screenshot } from './support/screenshots.ts';

let app: E2EApp;
let page: Page;

beforeAll(async () => {
  app = await startE2EApp({ settings: { permissionOverrides: { script_echo: { executionPolicy: 'ask-always' } } } });
  ({ page } = app);
});

afterAll(async () => {
  await app?.close();
});

const focusedTestId = (p: Page) => p.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

describe('Esc closes the top layer and never ends a turn waiting for the user', () => {
  it('with a card waiting, Esc closes Settings, Variables and Tools (focus on their tab), the menu by Send, and leaves the card waiting', async () => {
    await newChat(page);
    await send(page, 'call script_echo {"text": "keep me"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor({ timeout: 20_000 });
    for (const name of ['settings', 'variables', 'tools'] as const) {
      // Opened by mouse, as the user did: the focus stays on the tab button.
      await page.getByTestId(`tab-${name}`).click();
      await page.getByTestId(`${name}-panel`).waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId(`${name}-panel`).waitFor({ state: 'detached' });
      expect(await focusedTestId(page)).toBe(`tab-${name}`);
      expect(await lastCall(page).getAttribute('data-status')).toBe('approval');
    }
    // The chat's own tool menu, with the keyboard back in the message box: Esc closes the menu only.
    await page.getByTestId('tools-button').click();
    await page.getByTestId('tool-selection').waitFor();
    await page.getByTestId('composer').focus();
    await page.keyboard.press('Escape');
    await page.getByTestId('tool-selection').waitFor({ state: 'detached' });
    // Two layers at once: Esc closes the newest (the panel opened last), then the next.
    await page.getByTestId('tools-button').click();
    await page.getByTestId('tool-selection').waitFor();
    await page.getByTestId('tab-settings').click();
    await page.keyboard.press('Escape');
    await page.getByTestId('settings-panel').waitFor({ state: 'detached' });
    expect(await page.getByTestId('tool-selection').count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.getByTestId('tool-selection').waitFor({ state: 'detached' });
    // Nothing left to close: Esc in the message box does not end the waiting turn either.
    await page.getByTestId('composer').focus();
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect(await lastCall(page).getAttribute('data-status')).toBe('approval');
    expect(await card.count()).toBe(1);
    expect(await page.getByText('Aborted while waiting for approval').count()).toBe(0);
    await screenshot(page, 'e2e-esc-keeps-waiting-card');
    // The card still answers: approving runs the call.
    await card.getByRole('button', { name: 'Approve once' }).click();
    await waitForStatus(lastCall(page), 'done');
  });

  it('Stop ends a turn that waits for the user', async () => {
    await newChat(page);
    await send(page, 'call script_echo {"text": "stop me"}');
    await page.getByTestId('execution-approval').waitFor({ timeout: 20_000 });
    await page.getByTestId('abort').click();
    await page.getByTestId('send').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('execution-approval').count()).toBe(0);
    expect(['rejected', 'cancelled']).toContain(await lastCall(page).getAttribute('data-status'));
  });
});

describe('drafts survive closing, and in-app dialogs ask instead of the browser', () => {
  it('an unsaved provider (key included) is still there after Esc closed Settings; Cancel ends it', async () => {
    await openPanel(page, 'settings');
    const panel = page.getByTestId('settings-panel');
    await panel.getByTestId('add-provider').click();
    const editor = panel.getByTestId('provider-editor').last();
    await editor.getByLabel('Provider name').fill('My server');
    await editor.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
    await editor.getByLabel('API key').fill('sk-typed-not-saved');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await openPanel(page, 'settings');
    const again = page.getByTestId('settings-panel').getByTestId('provider-editor').last();
    await expect(again.getByLabel('Provider name').inputValue()).resolves.toBe('My server');
    await expect(again.getByLabel('Base URL').inputValue()).resolves.toBe('http://127.0.0.1:9/v1');
    await expect(again.getByLabel('API key').inputValue()).resolves.toBe('sk-typed-not-saved');
    // Nothing was stored by closing: the settings file has no such provider.
    expect(JSON.stringify(JSON.parse(readFileSync(join(app.home, 'settings.json'), 'utf8')).providers)).not.toContain('My server');
    await again.getByRole('button', { name: 'Cancel' }).click();
    await page.keyboard.press('Escape');
    await openPanel(page, 'settings');
    expect(await page.getByTestId('settings-panel').getByLabel('Provider name').count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it('a question is an in-app dialog: focus in it, Esc cancels only it (the panel stays), focus goes back', async () => {
    const natives: string[] = [];
    page.on('dialog', (d) => {
      natives.push(d.type());
      void d.dismiss();
    });
    // Remove a provider inside Settings: the dialog is the top layer, the panel the one under it.
    await openPanel(page, 'settings');
    const panel = page.getByTestId('settings-panel');
    await panel.getByRole('button', { name: 'Edit' }).first().click();
    const remove = panel.getByTestId('provider-editor').getByRole('button', { name: 'Remove' });
    await remove.click();
    const dialog = page.getByRole('dialog', { name: /Remove provider/ });
    await dialog.waitFor();
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="app-dialog"]'))).toBe(true);
    // The keyboard stays inside the modal: Tab cycles among its buttons.
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="app-dialog"]'))).toBe(true);
    }
    await screenshot(page, 'e2e-in-app-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await panel.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Remove');
    // The provider is still stored.
    expect(JSON.parse(readFileSync(join(app.home, 'settings.json'), 'utf8')).providers.length).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    // Deleting a session asks in the app too; Cancel keeps it, Delete deletes it.
    await newChat(page);
    await send(page, 'a chat to delete');
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: a chat to delete' }).waitFor({ timeout: 20_000 });
    const sessions = await page.getByTestId('session-item').count();
    const item = page.getByTestId('session-item').filter({ hasText: 'a chat to delete' });
    await item.hover();
    await item.getByRole('button', { name: /^Delete / }).click();
    await answerDialog(page, false);
    expect(await page.getByTestId('session-item').count()).toBe(sessions);
    await item.hover();
    await item.getByRole('button', { name: /^Delete / }).click();
    await answerDialog(page, true);
    await expect.poll(() => page.getByTestId('session-item').count()).toBe(sessions - 1);
    expect(await item.count()).toBe(0);
    expect(natives).toEqual([]);
  });
});
