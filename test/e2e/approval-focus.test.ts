// Issue 10 §4 in Chromium: a keystroke must never answer an approval card nobody looked at.
// The user sends a message and goes on typing their next note at full speed while the model's
// ask-always tool call arrives: every character lands in the message box, nothing is approved or
// rejected. The card is reached on purpose with Ctrl+Shift+Enter or Tab, and then the keyboard
// answers it as before (Enter approves once, Esc rejects, focus moves on to the next card).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ECHO_ASKS, startFileApp } from './support/e2e-app.ts';
import { screenshot } from './support/screenshots.ts';
import { lastCall, newChat, waitForStatus } from './support/chat-page.ts';

const { fake, page } = await startFileApp({ settings: ECHO_ASKS });

const focused = (p: Page) => p.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.textContent ?? document.activeElement?.tagName);
const composerValue = (p: Page) => p.getByTestId('composer').inputValue();

/** Records, in the page, how much of the note was in the box when the first card appeared. */
async function watchForCard(p: Page): Promise<void> {
  await p.evaluate(() => {
    const w = window as unknown as { __cardAt?: number; __cardFocused?: boolean };
    delete w.__cardAt;
    const observer = new MutationObserver(() => {
      if (w.__cardAt !== undefined || !document.querySelector('[data-testid="execution-approval"]')) return;
      w.__cardAt = (document.querySelector('[data-testid="composer"]') as HTMLTextAreaElement).value.length;
      observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
}
const cardAt = (p: Page) => p.evaluate(() => (window as unknown as { __cardAt?: number }).__cardAt);

const SENTENCE = 'and then we should look at the logs again before lunch, ok? ';

describe('typing while an approval card arrives', () => {
  it('right after sending (the card arrives in the empty box\'s focus): the next note goes into the box, every character, and nothing is answered', async () => {
    await newChat(page);
    const box = page.getByTestId('composer');
    await box.focus();
    await watchForCard(page);
    const requestsBefore = fake.chatRequests().length;
    // Typed, not filled: the Enter that sends is a keystroke like the ones that follow.
    await page.keyboard.type('call script_echo {"text": "ship it"}');
    await page.keyboard.press('Enter');
    // The card arrives while the box is empty (the moment it used to take focus), then the user
    // types their next note at full speed, spaces included.
    await page.getByTestId('execution-approval').waitFor();
    expect(await cardAt(page)).toBe(0);
    const typed = SENTENCE.repeat(3);
    await page.keyboard.type(typed);
    await screenshot(page, 'e2e-typing-while-card-arrives');

    expect(await composerValue(page)).toBe(typed);
    expect(await focused(page)).toBe('composer');
    const card = page.getByTestId('execution-approval');
    expect(await card.count()).toBe(1);
    expect(await card.getByRole('button', { name: 'Approve once' }).isEnabled()).toBe(true);
    expect(await lastCall(page).getAttribute('data-status')).toBe('approval');
    // The tool did not run and the model was not called again.
    expect(fake.chatRequests().length).toBe(requestsBefore + 1);
    // It said so to screen readers instead.
    await expect(card.getByRole('alert').textContent()).resolves.toMatch(/Approval needed for running script_echo\. Press (Ctrl\+Shift\+Enter|⌘⇧Enter) to go to it\./);

    // Reached on purpose: the shortcut, then Enter approves once and focus comes back to the box.
    await page.keyboard.press('ControlOrMeta+Shift+Enter');
    expect(await focused(page)).toBe('Approve once');
    await page.keyboard.press('Enter');
    await waitForStatus(lastCall(page), 'done');
    expect(await focused(page)).toBe('composer');
    expect(await composerValue(page)).toBe(typed);
  });

  it('parallel cards arriving while the note is typed at full speed: every character lands, then Tab order and the shortcut reach the cards', async () => {
    await newChat(page);
    const box = page.getByTestId('composer');
    await box.focus();
    await watchForCard(page);
    await page.keyboard.type('parallel 2');
    await page.keyboard.press('Enter');
    let typed = '';
    for (let i = 0; i < 80; i++) {
      await page.keyboard.type(SENTENCE);
      typed += SENTENCE;
      const at = await cardAt(page);
      if (at !== undefined && typed.length - at >= 2 * SENTENCE.length) break;
    }
    const at = await cardAt(page);
    expect(at, 'the cards appeared while the user was typing').toBeGreaterThanOrEqual(0);
    expect(at!).toBeLessThan(typed.length);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="execution-approval"]').length === 2);
    expect(await composerValue(page)).toBe(typed);
    expect(await page.getByTestId('tool-call').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(['approval', 'approval']);

    // Shift+Tab from the message box walks back into the last card.
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="execution-approval"]'))).toBe(true);
    // The shortcut works from any field, the session search included (its Enter opens a session).
    const session = await page.locator('.session-heading').textContent();
    await page.keyboard.press('ControlOrMeta+k');
    expect(await focused(page)).toBe('session-search');
    await page.keyboard.press('ControlOrMeta+Shift+Enter');
    expect(await page.locator('.session-heading').textContent()).toBe(session);
    // Esc rejects the first, focus moves on to the second, Enter approves it.
    await page.keyboard.press('Escape');
    expect(await focused(page)).toBe('Approve once');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="tool-call"]')].every((e) => ['done', 'rejected'].includes(e.getAttribute('data-status')!)), undefined, { timeout: 20_000 });
    expect(await page.getByTestId('tool-call').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(['rejected', 'done']);
    expect(await focused(page)).toBe('composer');
    expect(await composerValue(page)).toBe(typed);
  });

  it('a card that took focus on an idle page does not answer to Space or Enter, and letters go to the message box', async () => {
    await newChat(page);
    await page.getByTestId('composer').fill('call script_echo {"text": "idle"}');
    await page.getByTestId('send').click();
    await page.getByTestId('execution-approval').waitFor();
    // Nobody typing (the click sent it) and nothing focused: the card may take focus...
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.waitForTimeout(4200);
    // ...so bring the same request back as a fresh card: switch sessions away and back.
    await page.getByTestId('session-item').nth(1).click();
    await page.getByTestId('session-item').nth(0).click();
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    expect(await focused(page)).toBe('Approve once');
    // The user did not see it: Space and Enter do nothing there…
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(300);
    expect(await lastCall(page).getAttribute('data-status')).toBe('approval');
    expect(await focused(page)).toBe('Approve once');
    // …and the sentence they type goes to the message box, from its first letter.
    await page.keyboard.type('ok so the next thing is');
    expect(await focused(page)).toBe('composer');
    expect(await composerValue(page)).toBe('ok so the next thing is');
    expect(await lastCall(page).getAttribute('data-status')).toBe('approval');
    expect(await card.getByRole('button', { name: 'Approve once' }).isEnabled()).toBe(true);
    // Moved there on purpose with the shortcut: now Enter approves once.
    await page.keyboard.press('ControlOrMeta+Shift+Enter');
    await page.keyboard.press('Enter');
    await waitForStatus(lastCall(page), 'done');
    expect(await focused(page)).toBe('composer');
  });
});
