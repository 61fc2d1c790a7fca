// Small page helpers shared by the e2e files (selectors live here, not in every test).
import type { Frame, Locator, Page } from 'playwright-core';

export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByTestId('composer').waitFor({ timeout: 20_000 });
}

export async function send(page: Page, text: string): Promise<void> {
  // Settings is a page in the chat's place: the user leaves it (its tab) to type a message.
  if (await page.getByTestId('settings-panel').count()) await page.getByTestId('tab-settings').click();
  const box = page.getByTestId('composer');
  await box.fill(text);
  await box.press('Enter');
}

/** "+ New chat": a draft, stored (and listed) once its first message is sent. */
export async function newChat(page: Page): Promise<void> {
  await page.getByTestId('new-session').click();
  await page.getByTestId('chat-draft').waitFor();
  await page.getByTestId('composer').waitFor();
}

/** The last tool-call block in the chat. */
export function lastCall(page: Page): Locator {
  return page.getByTestId('tool-call').last();
}

export async function waitForStatus(call: Locator, status: string): Promise<void> {
  await call.and(call.page().locator(`[data-status="${status}"]`)).waitFor({ timeout: 20_000 });
}

export async function openPanel(page: Page, name: 'tools' | 'variables' | 'settings'): Promise<void> {
  const tab = page.getByTestId(`tab-${name}`);
  if ((await tab.getAttribute('aria-pressed')) !== 'true') await tab.click();
  await page.getByTestId(`${name}-panel`).waitFor();
}

/**
 * Answers the in-app dialog (ui/dialog.tsx) the way a user would: types `text` into its field
 * when given, then presses its confirm button; `false` cancels it with Esc.
 */
export async function answerDialog(page: Page, answer: true | false | { text: string }): Promise<void> {
  const dialog = page.getByTestId('app-dialog');
  await dialog.waitFor();
  if (answer === false) {
    await page.keyboard.press('Escape');
  } else {
    if (typeof answer === 'object') await dialog.getByTestId('app-dialog-input').fill(answer.text);
    await dialog.getByTestId('app-dialog-confirm').click();
  }
  await dialog.waitFor({ state: 'detached' });
}

/** An app's own document: the inner frame on the sandbox origin (under the proxy frame) showing `marker`. */
export async function appFrame(page: Page, marker: string): Promise<Frame> {
  const end = Date.now() + 20_000;
  while (Date.now() < end) {
    for (const frame of page.frames()) {
      if (!/\/app\/[A-Za-z0-9_-]+$/.test(frame.url())) continue;
      const found = await frame.evaluate((m) => document.body?.innerText.includes(m) ?? false, marker).catch(() => false);
      if (found) return frame;
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`no app frame showing "${marker}"; frames: ${page.frames().map((f) => f.url()).join(', ')}`);
}

/** The data-testid of the focused element, or its tag name when it has none. */
export const focusedTestId = (page: Page): Promise<string | undefined> =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);
