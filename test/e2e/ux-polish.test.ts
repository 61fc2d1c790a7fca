// A new user's path in Chromium, where jsdom has no layout or real focus: the keyboard through
// an approval card, a long session that keeps following its output, and a narrow window.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startFileApp } from './support/e2e-app.ts';
import { screenshot } from './support/screenshots.ts';
import { lastCall, newChat, send, waitForStatus } from './support/chat-page.ts';

const { page } = await startFileApp();

const focused = (p: Page) => p.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

/** Pixels between the bottom of the message list's viewport and the end of its content. */
const distanceFromBottom = (p: Page) =>
  p.evaluate(() => {
    const list = document.querySelector<HTMLElement>('[data-testid="message-list"]')!;
    return list.scrollHeight - list.scrollTop - list.clientHeight;
  });

describe('a new user in Chromium', () => {
  it('answers an approval card with the keyboard alone and gets the message box back', async () => {
    await newChat(page);
    await page.getByTestId('composer').focus();
    await send(page, 'call script_echo {"text": "keyboard only"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    // The card leaves the keyboard in the message box (approval-focus.test.ts); the shortcut goes there.
    expect(await focused(page)).toBe('composer');
    await page.keyboard.press('ControlOrMeta+Shift+Enter');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Approve once');
    await page.keyboard.press('Enter');
    await waitForStatus(lastCall(page), 'done');
    expect(await focused(page)).toBe('composer');

    // Reject with a reason, keyboard only: the shortcut, Tab past the four approve buttons
    // (once, session, always, …calls like this) to "Add reason…", type, Enter.
    await send(page, 'call script_echo {"text": "again"}');
    await card.waitFor();
    await page.keyboard.press('ControlOrMeta+Shift+Enter');
    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Add reason…');
    await page.keyboard.press('Enter');
    await page.keyboard.type('not now');
    await page.keyboard.press('Enter');
    await waitForStatus(lastCall(page), 'rejected');
    expect(await focused(page)).toBe('composer');
    await screenshot(page, 'e2e-keyboard-approval');
  });

  it('a long session keeps following new output, and sending from higher up scrolls back down', async () => {
    await newChat(page);
    for (let i = 0; i < 40; i++) {
      await send(page, `message ${i}\n\n- one\n- two\n- three`);
      await page.getByTestId('assistant-message').filter({ hasText: `You said: message ${i}` }).waitFor();
    }
    await page.waitForTimeout(200);
    expect(await distanceFromBottom(page)).toBeLessThan(30);

    await page.getByTestId('message-list').evaluate((list) => (list.scrollTop = 0));
    await page.waitForTimeout(200);
    expect(await distanceFromBottom(page)).toBeGreaterThan(1000);
    await send(page, 'from the top');
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: from the top' }).waitFor();
    await page.waitForTimeout(200);
    expect(await distanceFromBottom(page)).toBeLessThan(30);
    await screenshot(page, 'e2e-long-session-bottom');
  });

  it('in a 900px window the sessions open from the top bar and close when one is opened', async () => {
    await page.setViewportSize({ width: 900, height: 700 });
    try {
      // The list was at the bottom; a smaller window keeps it there.
      await page.waitForTimeout(200);
      expect(await distanceFromBottom(page)).toBeLessThan(30);
      const sidebar = page.locator('#sessions-sidebar');
      expect(await sidebar.isVisible()).toBe(false);
      await page.getByTestId('sessions-toggle').click();
      await sidebar.waitFor({ state: 'visible' });
      expect(await focused(page)).toBe('session-search');
      await screenshot(page, 'e2e-narrow-sessions');
      await page.getByTestId('session-item').last().locator('button.session-open').click();
      await sidebar.waitFor({ state: 'hidden' });
      expect(await page.getByTestId('sessions-toggle').getAttribute('aria-expanded')).toBe('false');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    expect(await page.getByTestId('sessions-toggle').isVisible()).toBe(false);
  });
});
