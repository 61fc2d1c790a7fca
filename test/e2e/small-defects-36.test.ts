// Issue 36 §7, the smaller defects, in Chromium: "Default" once in the Permissions list, the chat
// header on one line at 1280 with a tool set, a rejection said once.
import { describe, expect, it } from 'vitest';
import { ECHO_ASKS, startFileApp } from './support/e2e-app.ts';
import { lastCall, newChat, send, waitForStatus } from './support/chat-page.ts';
import { screenshot } from './support/screenshots.ts';

const app = await startFileApp({
  settings: { ...ECHO_ASKS, toolSets: [{ name: 'writing', groups: ['script'], level: 'ask' }] },
});
const { page } = app;

describe('smaller defects', () => {
  it('the Permissions list names the default level once; the header stays on one line at 1280 with a tool set', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await newChat(page);
    const options = await page.getByTestId('permission-level').locator('option').allTextContents();
    expect(options.filter((o) => /default/i.test(o))).toHaveLength(1);
    // A stored chat: its header also has the context meter and Export.
    await send(page, 'hello');
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: hello' }).waitFor();
    await page.getByTestId('tool-set').waitFor();
    const header = page.getByTestId('chat-header');
    await screenshot(page, 'e2e-chat-header-1280');
    // One line: no control starts below the bottom of another.
    const wrapped = await header.evaluate((el) => {
      const boxes = Array.from(el.children).map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
      return boxes.some((a) => boxes.some((b) => a.top >= b.bottom - 1));
    });
    expect(wrapped).toBe(false);
    // With a tool set chosen, the empty choice is the set's level and the default one is listed.
    await page.getByTestId('tool-set').selectOption('writing');
    await expect.poll(() => page.getByTestId('permission-level').locator('option').allTextContents()).toContain('Default');
    await page.getByTestId('tool-set').selectOption('');
  });

  it('a call rejected without a reason says so once', async () => {
    await send(page, 'call script_echo {"text": "no"}');
    await page.getByTestId('execution-approval').getByRole('button', { name: 'Reject' }).click();
    await waitForStatus(lastCall(page), 'rejected');
    await expect(lastCall(page).getByTestId('reject-reason').textContent()).resolves.toBe('Rejected by the user.');
  });
});
