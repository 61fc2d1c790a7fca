// A turn cut off by a restart of the server, in Chromium: the chat shows "Interrupted" with
// Continue and Retry; Continue works with the mouse and with the keyboard alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fakeTurn } from '../support/fake-openai-server.ts';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { e2eScript, FINAL_PREFIX } from './support/fake-model.ts';
import { lastCall, newChat, send, waitForStatus } from './support/chat-page.ts';
import { screenshot } from './support/screenshots.ts';
import { seriousViolations } from './support/axe.ts';

let app: E2EApp;
let page: Page;
let slowOnce = true;

beforeAll(async () => {
  app = await startE2EApp({
    fake: {
      script: (request, turn) => {
        const said = request.body.messages.at(-1)?.content;
        if (said === 'tell me slowly' && slowOnce) {
          slowOnce = false;
          return fakeTurn.text('A long answer that is still streaming when the server stops…', { deltaChars: 1, delayMs: 200 });
        }
        if (said === 'tell me slowly') return fakeTurn.text('Here is the whole answer.');
        return e2eScript(request, turn);
      },
    },
  });
  ({ page } = app);
});

afterAll(async () => {
  await app?.close();
});

const interrupted = () => page.getByTestId('turn-interrupted');

/** Shift+Tab from the message box until `name` has the focus: the keyboard path a user takes. */
async function tabBackTo(name: string): Promise<void> {
  await page.getByTestId('composer').focus();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Shift+Tab');
    if ((await page.evaluate(() => document.activeElement?.textContent?.trim())) === name) return;
  }
  throw new Error(`"${name}" was not reached with Shift+Tab from the message box`);
}

describe('a turn interrupted by a restart', () => {
  it('cut while the model answered: Interrupted with Continue and Retry; Continue (mouse) gets the answer', async () => {
    await send(page, 'tell me slowly');
    await page.locator('[data-testid="assistant-message"][data-streaming="true"]').waitFor();
    await app.restart();
    await interrupted().waitFor();
    await expect(interrupted().textContent()).resolves.toMatch(/^Interrupted.*Tooldesk stopped while the model was answering/);
    await interrupted().getByRole('button', { name: 'Retry' }).waitFor();
    await screenshot(page, 'e2e-interrupted-turn');
    expect(await seriousViolations(page)).toEqual([]);
    await interrupted().getByRole('button', { name: 'Continue' }).click();
    await page.getByTestId('assistant-message').filter({ hasText: 'Here is the whole answer.' }).waitFor();
    await interrupted().waitFor({ state: 'detached' });
  });

  it('cut while a call waited for approval: the card is back after the restart; approved, the turn finishes', async () => {
    await newChat(page);
    await send(page, 'call script_echo {"text": "still here"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    await app.restart();
    await card.waitFor();
    await expect(card.textContent()).resolves.toContain('Asked again: Tooldesk stopped while this call waited for your answer.');
    expect(await interrupted().count()).toBe(0);
    await card.getByRole('button', { name: 'Approve once' }).click();
    await page.getByTestId('assistant-message').filter({ hasText: `${FINAL_PREFIX} echo: still here` }).waitFor();
    await waitForStatus(lastCall(page), 'done');
  });

  it('cut while a tool ran: Continue by keyboard asks before running it again', async () => {
    await newChat(page);
    await send(page, 'call script_slow {"seconds": 60}');
    await waitForStatus(lastCall(page), 'running');
    await app.restart();
    await interrupted().waitFor();
    await expect(interrupted().textContent()).resolves.toContain('script_slow was running, so it may have done part of its work');
    await waitForStatus(lastCall(page), 'interrupted');
    await screenshot(page, 'e2e-interrupted-tool');
    expect(await seriousViolations(page)).toEqual([]);

    await tabBackTo('Continue');
    await page.keyboard.press('Enter');
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    await expect(card.textContent()).resolves.toContain('may have done part of its work. Run it again?');
    await interrupted().waitFor({ state: 'detached' });
    await card.getByRole('button', { name: 'Reject' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('assistant-message').filter({ hasText: FINAL_PREFIX }).waitFor();
    await waitForStatus(lastCall(page), 'rejected');
  });
});
