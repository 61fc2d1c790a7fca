// Issue 25 in Chromium: the keyboard model of a desktop app. Esc closes the top layer only and
// never ends a turn that waits for the user; New chat puts the cursor in the message box; the
// session list is one tab stop; sending during a turn queues the message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { lastCall, newChat, send, waitForStatus } from './support/chat-page.ts';
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
