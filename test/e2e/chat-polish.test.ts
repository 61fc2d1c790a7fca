// Issue 15's defects in Chromium: long pastes fold, Esc closes panels, a narrow window keeps
// the header reachable, Ctrl+K works from the keyboard alone, relative times move, code is
// highlighted, and variables read as names and kinds a person understands.
import { describe, expect, it } from 'vitest';
import { startFileApp } from './support/e2e-app.ts';
import { focusedTestId, newChat, openPanel, send } from './support/chat-page.ts';

const { page } = await startFileApp();

describe('chat polish', () => {
  it('folds a long pasted message behind "Show all" and unfolds it', async () => {
    await newChat(page);
    const lines = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join('\n');
    await send(page, lines);
    const bubble = page.locator('.user-bubble').last();
    await bubble.waitFor();
    await expect.poll(() => bubble.locator('.plain-text').innerText()).toContain('line 20');
    expect(await bubble.locator('.plain-text').innerText()).not.toContain('line 21');
    const toggle = bubble.getByRole('button', { name: /Show all/ });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await bubble.locator('.plain-text').innerText()).toContain('line 60');
    expect(await bubble.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true');
    // A short message has no toggle.
    await send(page, 'short one');
    await page.locator('.user-bubble').filter({ hasText: 'short one' }).waitFor();
    expect(await page.locator('.user-bubble').last().getByRole('button').count()).toBe(0);
  });

  it('Esc closes the Tools, Variables and Settings panels and gives focus back to their tab', async () => {
    for (const name of ['tools', 'variables', 'settings'] as const) {
      await openPanel(page, name);
      await page.getByTestId(`${name}-panel`).locator('input, select, button').first().focus();
      await page.keyboard.press('Escape');
      await page.getByTestId(`${name}-panel`).waitFor({ state: 'detached' });
      expect(await focusedTestId(page)).toBe(`tab-${name}`);
    }
    // Esc with the focus in the message box closes an open panel too (no turn is running).
    await openPanel(page, 'variables');
    await page.getByTestId('composer').focus();
    await page.keyboard.press('Escape');
    await page.getByTestId('variables-panel').waitFor({ state: 'detached' });
  });

  it('in a 900px window an open panel has a backdrop and leaves the header buttons usable', async () => {
    await page.setViewportSize({ width: 900, height: 700 });
    try {
      // A side panel (Settings is a page in the chat's place: settings-page.test.ts).
      await openPanel(page, 'variables');
      const backdrop = page.locator('.panel-backdrop');
      expect(await backdrop.isVisible()).toBe(true);
      // The header's buttons are not covered: clicking another tab switches panels.
      await page.getByTestId('tab-tools').click();
      await page.getByTestId('tools-panel').waitFor();
      await page.getByTestId('sessions-toggle').click({ trial: true });
      // Clicking the backdrop closes the panel.
      await backdrop.click({ position: { x: 20, y: 300 } });
      await page.getByTestId('tools-panel').waitFor({ state: 'detached' });
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('Ctrl+K: arrows move through the sessions, Enter opens one, the message box gets the focus', async () => {
    await newChat(page);
    await send(page, 'zebra crossing notes');
    await page.getByTestId('assistant-message').filter({ hasText: 'zebra crossing notes' }).waitFor();
    await newChat(page);
    await send(page, 'another topic');
    await page.getByTestId('assistant-message').filter({ hasText: 'another topic' }).waitFor();
    await page.getByTestId('composer').focus();
    await page.keyboard.press('Control+k');
    expect(await focusedTestId(page)).toBe('session-search');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    // The keyboard itself moves into the list (issue 25: one tab stop, roving focus).
    const chosen = page.locator('[data-testid="session-item"]:has(button.session-open:focus)');
    expect(await chosen.count()).toBe(1);
    const title = await chosen.locator('.session-title').innerText();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.session-heading').innerText()).toBe(title);
    await expect.poll(() => focusedTestId(page)).toBe('composer');

    // Typing a query and pressing Enter opens the first match.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('zebra');
    await page.locator('[data-testid="session-item"]').filter({ hasText: /zebra/i }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.user-bubble').filter({ hasText: 'zebra crossing notes' }).waitFor();
    await expect.poll(() => focusedTestId(page)).toBe('composer');
  });

  it('relative times move on without a click', async () => {
    await page.getByTestId('session-search').fill('');
    const age = page.locator('[data-testid="session-item"].active .session-open .small');
    const first = await age.innerText();
    await expect.poll(() => age.innerText(), { timeout: 15_000, interval: 1000 }).not.toBe(first);
  });

  it('highlights a code block in an answer and shows variables with full names and readable kinds', async () => {
    await newChat(page);
    await send(page, 'Here:\n\n```js\nconst x = 1;\n```');
    await page.locator('.assistant-body code.hljs .hljs-keyword').first().waitFor();
    await send(page, 'call script_echo {"text": "{\\"a\\": 1}"}');
    await page.getByTestId('execution-approval').waitFor();
    await page.getByRole('button', { name: 'Approve once' }).click();
    await page.locator('[data-testid="tool-call"][data-status="done"]').last().waitFor();
    await openPanel(page, 'variables');
    const row = page.getByTestId('variable-row').filter({ hasText: 'script_echo' }).filter({ hasText: 'Tool result' });
    await row.first().waitFor();
    const nameButton = row.first().locator('.var-name');
    // The whole name is visible (wrapped, not cut with an ellipsis).
    expect(await nameButton.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    expect(await page.getByLabel('Filter by type').locator('option').allInnerTexts()).toContain('Tool arguments');
  });
});
