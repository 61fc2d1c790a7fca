// Done means, e2e: a scheduled run pauses on a question; in Chromium (notifications granted) the
// Inbox badge appears and a notification is raised; approving from the Inbox resumes the run,
// which ends done, and the schedule's chat — listed apart in the sidebar — holds the whole run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { RunStore } from '../../electron/runtime/schedules/run-store.ts';
import { runCli } from '../support/run-cli.ts';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { FINAL_PREFIX } from './support/fake-model.ts';
import { openApp } from './support/chat-page.ts';
import { seriousViolations } from './support/axe.ts';

let app: E2EApp;
let page: Page;

beforeAll(async () => {
  app = await startE2EApp({
    settings: { schedules: [{ name: 'e2e-morning', prompt: 'call script_echo {"text":"from the schedule"}', every: '1d', createdAt: Date.now() }] },
  });
  ({ page } = app);
  await app.browser.context.grantPermissions(['notifications'], { origin: new URL(app.server.url).origin });
  // Records what the page hands to the Notification API (headless Chromium shows nothing).
  await page.addInitScript(() => {
    const Real = window.Notification;
    const shown: string[] = [];
    (window as unknown as { __notifications: string[] }).__notifications = shown;
    class Recorded extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push(`${title} | ${options?.body ?? ''}`);
      }
      static override get permission() {
        return Real.permission;
      }
    }
    window.Notification = Recorded as unknown as typeof Notification;
  });
  // A fresh load (the same URL again would only change the hash): the script runs before the app.
  await page.goto('about:blank');
  await openApp(page, app.server.url);
}, 180_000);

afterAll(async () => {
  await app?.close();
});

describe('the Inbox (browser mode)', () => {
  it('shows the waiting question with a badge and a notification; Approve resumes the run to done', async () => {
    expect(await page.evaluate(() => Notification.permission)).toBe('granted');
    const ran = await runCli(app.home, ['schedule', 'run', 'e2e-morning']);
    expect(ran.stdout).toMatch(/^run-\w+ waiting/);

    const badge = page.getByTestId('inbox-badge');
    await badge.waitFor();
    expect(await badge.textContent()).toBe('1');
    await page.waitForFunction(() => (window as unknown as { __notifications: string[] }).__notifications.length > 0);
    const notes = await page.evaluate(() => (window as unknown as { __notifications: string[] }).__notifications);
    expect(notes).toEqual(['Schedule e2e-morning is waiting for you | Run script_echo?']);

    await page.getByTestId('inbox-toggle').click();
    const item = page.getByTestId('inbox-item');
    await expect(item.textContent()).resolves.toContain('Run script_echo(text="from the schedule")');
    expect(await seriousViolations(page)).toEqual([]);
    await item.getByTestId('inbox-approve').click();
    await badge.waitFor({ state: 'detached' });

    const store = new RunStore(app.home);
    await expect.poll(() => store.runs('e2e-morning')[0]?.status, { timeout: 20_000 }).toBe('done');

    // The schedule's chat is listed apart, and holds the run: the question, the call, the answer.
    const chat = page.getByTestId('schedule-chat');
    await expect(chat.textContent()).resolves.toContain('e2e-morning');
    expect(await page.getByTestId('session-item').filter({ hasText: 'Schedule: e2e-morning' }).count()).toBe(0);
    await chat.locator('button').click();
    await page.getByTestId('assistant-message').filter({ hasText: `${FINAL_PREFIX} echo: from the schedule` }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // The run's message is labelled with its time, as a schedule's (not an MCP prompt's).
    await expect(page.getByTestId('prompt-source').first().textContent()).resolves.toMatch(/^Scheduled run · e2e-morning · /);
  });
});
