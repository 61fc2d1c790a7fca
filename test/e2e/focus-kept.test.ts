// Issue 36 §5 (and §7's Esc on Chat settings and Inspect), in Chromium: the keyboard is never
// dropped on the page body. It stays on the control (a group switch, a provider's Save), goes
// into what opens (a panel, the new provider form, the tool menu, the argument editor) and back
// to the opener when that closes (the Tools·N menu, F2 rename, the sessions drawer, Chat
// settings, Inspect).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ECHO_ASKS, startFileApp } from './support/e2e-app.ts';
import { seriousViolations } from './support/axe.ts';
import { focusedTestId, lastCall, newChat, openPanel, send, waitForStatus } from './support/chat-page.ts';

const app = await startFileApp({ settings: ECHO_ASKS });
const { page } = app;

/** What has the keyboard: its test id, else its accessible label or text; BODY when nothing does. */
const focused = (p: Page) =>
  p.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'BODY';
    return el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName;
  });

describe('focus is never thrown to the page body', () => {
  it('a group switch keeps the keyboard after toggling (both ways)', async () => {
    await openPanel(page, 'settings');
    const toggle = page.getByTestId('group-toggle-script');
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await page.waitForTimeout(200);
    expect(await focused(page)).toBe('group-toggle-script');
    await page.keyboard.press('Space');
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await page.waitForTimeout(200);
    expect(await focused(page)).toBe('group-toggle-script');
  });

  it('"+ Add provider" takes the keyboard into the form; Save keeps it on Save; Cancel gives it back', async () => {
    await page.getByTestId('add-provider').click();
    await expect.poll(() => focused(page)).toBe('Provider name');
    await page.keyboard.type('Second server');
    await page.getByLabel('Base URL').fill(app.fake.url);
    await page.getByTestId('provider-save').click();
    await page.getByTestId('provider-saved').waitFor();
    await page.waitForTimeout(300);
    expect(await focused(page)).toBe('provider-save');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-provider]') !== null)).toBe(true);
    // A second new form, given up: the keyboard goes back to "+ Add provider".
    await page.getByTestId('add-provider').click();
    await expect.poll(() => focused(page)).toBe('Provider name');
    await page.getByTestId('provider-editor').last().getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => focused(page)).toBe('add-provider');
    await page.keyboard.press('Escape');
    await page.getByTestId('settings-panel').waitFor({ state: 'detached' });
  });

  it('a side panel opened by its tab has the keyboard inside it', async () => {
    for (const name of ['tools', 'variables'] as const) {
      await page.getByTestId(`tab-${name}`).click();
      await page.getByTestId(`${name}-panel`).waitFor();
      await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('.panel'))).toBe(true);
      await page.keyboard.press('Escape');
      expect(await focusedTestId(page)).toBe(`tab-${name}`);
    }
  });

  it('Esc from the Tools·N menu gives the keyboard back to its button', async () => {
    await page.getByTestId('tools-button').click();
    await page.getByTestId('tool-selection').waitFor();
    expect(await focused(page)).toBe('Search tools');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('tool-selection').waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('tools-button');
  });

  it('F2 rename, ended by Enter or by Esc, leaves the keyboard on the chat\'s row', async () => {
    await send(page, 'a chat to rename');
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: a chat to rename' }).waitFor();
    for (const [key, title] of [['Enter', 'Renamed by F2'], ['Escape', 'Not kept']] as const) {
      await page.locator('.session-list li.active button.session-open').focus();
      await page.keyboard.press('F2');
      await page.getByLabel('Session title').fill(title);
      await page.keyboard.press(key);
      await page.getByLabel('Session title').waitFor({ state: 'detached' });
      await page.waitForTimeout(200);
      expect(await page.evaluate(() => document.activeElement?.matches('.session-list li.active button.session-open'))).toBe(true);
    }
    await expect(page.locator('.session-list li.active .session-title').textContent()).resolves.toBe('Renamed by F2');
  });

  it('Esc from the narrow window\'s sessions drawer gives the keyboard back to its button', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      await page.getByTestId('sessions-toggle').click();
      expect(await focused(page)).toBe('session-search');
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('.layout.sessions-open'));
      expect(await focused(page)).toBe('sessions-toggle');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('Chat settings closes on Esc, the keyboard back on its button', async () => {
    await page.getByTestId('chat-settings-toggle').click();
    await page.getByTestId('chat-settings').getByLabel('System prompt').focus();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('chat-settings').waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('chat-settings-toggle');
  });

  it('Inspect closes on Esc, the keyboard back on its button', async () => {
    await newChat(page);
    await send(page, 'call script_echo {"text": "inspect me"}');
    await page.getByTestId('execution-approval').getByRole('button', { name: 'Approve once' }).click();
    await waitForStatus(lastCall(page), 'done');
    await lastCall(page).getByRole('button', { name: 'Inspect' }).click();
    const panel = lastCall(page).getByTestId('inspect-panel');
    await panel.waitFor();
    await panel.getByRole('button').first().focus();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('Inspect');
  });
});
