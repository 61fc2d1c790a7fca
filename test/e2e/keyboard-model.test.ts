// Issue 25 in Chromium: the keyboard model of a desktop app. Esc closes the top layer only and
// never ends a turn that waits for the user; New chat puts the cursor in the message box; the
// session list is one tab stop; sending during a turn queues the message.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ECHO_ASKS, startFileApp } from './support/e2e-app.ts';
import { answerDialog, focusedTestId, lastCall, newChat, openPanel, send, waitForStatus } from './support/chat-page.ts';
import { screenshot } from './support/screenshots.ts';
import { seriousViolations } from './support/axe.ts';

const app = await startFileApp({ settings: ECHO_ASKS });
const { page } = app;

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
    expect(await seriousViolations(page)).toEqual([]);
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

describe('focus: New chat, the message box shortcut, the session list as one tab stop', () => {
  it('"+ New chat" puts the cursor in the message box: what is typed next lands there', async () => {
    await page.getByTestId('new-session').click();
    await page.getByTestId('chat-draft').waitFor();
    expect(await focusedTestId(page)).toBe('composer');
    await page.keyboard.type('typed right away');
    await expect(page.getByTestId('composer').inputValue()).resolves.toBe('typed right away');
    await page.getByTestId('composer').fill('');
  });

  it('with 16 chats, Tab goes from New chat to the box in a few presses; arrows, Home, End and Enter work in the list', async () => {
    for (let n = await page.getByTestId('session-item').count(); n < 16; n++) {
      await newChat(page);
      await send(page, `chat number ${n}`);
      await page.getByTestId('assistant-message').filter({ hasText: `You said: chat number ${n}` }).waitFor({ timeout: 20_000 });
    }
    expect(await page.getByTestId('session-item').count()).toBeGreaterThanOrEqual(16);
    await page.getByTestId('new-session').focus();
    let presses = 0;
    const stops: string[] = [];
    while ((await focusedTestId(page)) !== 'composer' && presses < 80) {
      await page.keyboard.press('Tab');
      presses++;
      stops.push(await page.evaluate(() => (document.activeElement?.closest('#sessions-sidebar') ? 'sidebar' : 'main')));
    }
    expect(await focusedTestId(page)).toBe('composer');
    // The sidebar is two stops (the search, then the list), however many chats there are; the
    // rest is the header's tabs, the chat's controls and the open chat's message actions.
    expect(stops.filter((where) => where === 'sidebar')).toHaveLength(2);
    expect(presses).toBeLessThanOrEqual(16);

    // Into the list: the stop is the open session's row; arrows move the keyboard, Enter opens.
    await page.getByTestId('session-search').focus();
    await page.keyboard.press('Tab');
    const focusedTitle = () => page.evaluate(() => document.activeElement?.closest('[data-testid="session-item"]')?.querySelector('.session-title')?.textContent ?? null);
    const titles = await page.locator('[data-testid="session-item"] .session-title').allInnerTexts();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-current'))).toBe('page');
    await page.keyboard.press('Home');
    expect(await focusedTitle()).toBe(titles[0]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await focusedTitle()).toBe(titles[2]);
    await page.keyboard.press('End');
    expect(await focusedTitle()).toBe(titles.at(-1));
    // Only one row is a tab stop, whichever has the keyboard.
    expect(await page.locator('.session-list button[tabindex="0"]').count()).toBe(1);
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.session-heading').innerText()).toBe(titles[1]);
    await expect.poll(() => focusedTestId(page)).toBe('composer');
    // ArrowUp from the first row goes back to the search box.
    await page.getByTestId('session-search').focus();
    await page.keyboard.press('ArrowDown');
    expect(await focusedTitle()).toBe(titles[0]);
    await page.keyboard.press('ArrowUp');
    expect(await focusedTestId(page)).toBe('session-search');
  });

  it('Shift+Esc puts the cursor in the message box from anywhere; F2 renames the focused chat', async () => {
    await openPanel(page, 'settings');
    await page.getByTestId('settings-panel').locator('input').first().focus();
    await page.keyboard.press('Shift+Escape');
    expect(await focusedTestId(page)).toBe('composer');
    // Settings is a page in the chat's place (issue 36 §2): reaching the message box leaves it.
    await page.getByTestId('settings-panel').waitFor({ state: 'detached' });
    await openPanel(page, 'tools');
    await page.getByTestId('tools-panel').locator('input').first().focus();
    await page.keyboard.press('Shift+Escape');
    expect(await focusedTestId(page)).toBe('composer');
    await page.getByTestId('tools-panel').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('tools-panel').waitFor({ state: 'detached' });

    await page.getByTestId('session-search').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('F2');
    const title = page.getByLabel('Session title');
    await title.waitFor();
    await title.fill('Renamed by F2');
    await title.press('Enter');
    await page.locator('[data-testid="session-item"] .session-title').filter({ hasText: 'Renamed by F2' }).waitFor();
  });
});

describe('sending while a turn runs', () => {
  it('queues the message ("will send after this turn", cancellable) with no error, and sends it when the turn ends', async () => {
    await newChat(page);
    await send(page, 'call script_echo {"text": "slow turn"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor({ timeout: 20_000 });
    const requests = app.fake.chatRequests().length;
    await send(page, 'sent during the turn');
    await send(page, 'changed my mind');
    const queued = page.getByTestId('queued-message');
    await expect.poll(() => queued.count()).toBe(2);
    expect(await queued.first().innerText()).toContain('will send after this turn');
    expect(await page.getByTestId('composer').inputValue()).toBe('');
    expect(await page.getByTestId('error-toast').count()).toBe(0);
    // Cancel takes the second one back into the (empty) box.
    await queued.filter({ hasText: 'changed my mind' }).getByRole('button', { name: /Cancel sending/ }).click();
    await expect.poll(() => queued.count()).toBe(1);
    expect(await page.getByTestId('composer').inputValue()).toBe('changed my mind');
    await page.getByTestId('composer').fill('');
    await screenshot(page, 'e2e-queued-message');
    expect(app.fake.chatRequests().length).toBe(requests);
    // The turn ends: the queued message goes out, once, and the queue is empty.
    await card.getByRole('button', { name: 'Approve once' }).click();
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: sent during the turn' }).waitFor({ timeout: 20_000 });
    expect(await queued.count()).toBe(0);
    expect(await page.locator('.user-bubble').filter({ hasText: 'sent during the turn' }).count()).toBe(1);
    expect(await page.locator('.user-bubble').filter({ hasText: 'changed my mind' }).count()).toBe(0);
    expect(await page.getByTestId('error-toast').count()).toBe(0);
  });
});

describe('a call run with edited arguments', () => {
  it('its header shows what ran, with an "edited" badge; the model\'s version is one click away', async () => {
    await newChat(page);
    await send(page, 'call script_echo {"text": "from the model"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor({ timeout: 20_000 });
    await card.getByRole('button', { name: 'Edit arguments' }).click();
    await card.getByLabel(/^text/).fill('what the user wanted');
    await card.getByTestId('args-validation').filter({ hasText: 'Valid.' }).waitFor();
    await card.getByRole('button', { name: 'Approve once' }).click();
    const call = lastCall(page);
    await waitForStatus(call, 'done');
    await expect(call.getByTestId('tool-args').innerText()).resolves.toContain('what the user wanted');
    expect(await call.getByTestId('tool-args').innerText()).not.toContain('from the model');
    const badge = call.getByRole('button', { name: 'edited' });
    expect(await badge.getAttribute('aria-expanded')).toBe('false');
    await badge.click();
    await expect(call.getByTestId('model-args').innerText()).resolves.toContain('from the model');
    await screenshot(page, 'e2e-edited-args-badge');
    // A call run as the model asked has no badge.
    await send(page, 'call script_echo {"text": "as asked"}');
    await page.getByTestId('execution-approval').getByRole('button', { name: 'Approve once' }).click();
    await waitForStatus(lastCall(page), 'done');
    expect(await lastCall(page).getByTestId('edited-badge').count()).toBe(0);
  });
});

describe('a mistyped /tool', () => {
  it('is answered "No tool named … did you mean" and its text stays in the box to be fixed', async () => {
    await newChat(page);
    const box = page.getByTestId('composer');
    await box.fill('/script_ecko {"text": "typo"}');
    await box.press('Enter');
    await page.getByText(/No tool named "script_ecko"/).waitFor({ timeout: 20_000 });
    expect(await box.inputValue()).toBe('/script_ecko {"text": "typo"}');
    // A known tool's command is sent and cleared as before.
    await box.fill('/script_echo {"text": "right"}');
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('');
  });
});
