// Chat with inline approvals in Chromium against the real runtime (browser mode) and the fake
// OpenAI server: approve, reject with a reason, result approval, approve for the session, XSS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FakeOpenAIServer } from '../support/fake-openai-server.ts';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { screenshot } from './support/screenshots.ts';
import { seriousViolations } from './support/axe.ts';
import { FINAL_PREFIX, toolMessages } from './support/fake-model.ts';
import { lastCall, newChat, openPanel, send, waitForStatus } from './support/chat-page.ts';

let app: E2EApp;
let fake: FakeOpenAIServer;
let page: Page;

beforeAll(async () => {
  app = await startE2EApp({ settings: { permissionOverrides: { script_review: { executionPolicy: 'auto', resultApprovalPolicy: 'always' } } } });
  ({ fake, page } = app);
});

afterAll(async () => {
  await app?.close();
});

async function finalAnswer(page: Page, contains: string): Promise<void> {
  await page.getByTestId('assistant-message').filter({ hasText: FINAL_PREFIX }).filter({ hasText: contains }).last().waitFor({ timeout: 20_000 });
}

describe('chat with inline approvals', () => {
  it('ask → tool call → approval card → approve → result → final answer', async () => {
    await send(page, 'call script_echo {"text": "hello"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    await expect(card.textContent()).resolves.toContain('script_echo');
    await expect(card.textContent()).resolves.toContain('hello');
    await screenshot(page, 'e2e-approval-card');
    await card.getByRole('button', { name: 'Approve once' }).click();
    await waitForStatus(lastCall(page), 'done');
    await finalAnswer(page, 'echo: hello');
    expect(await page.getByTestId('execution-approval').count()).toBe(0);
    expect(toolMessages(fake.chatRequests().at(-1)).join('\n')).toContain('echo: hello');
    await screenshot(page, 'e2e-approve');
    // bubblewrap works on this machine: no sandbox warning.
    expect(await page.getByTestId('sandbox-banner').count()).toBe(0);
  });

  it('reject with a reason: the model receives the reason', async () => {
    await newChat(page);
    await send(page, 'call script_echo {"text": "rm -rf"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    await card.getByRole('button', { name: 'Add reason…' }).click();
    await card.getByLabel('Reason for rejecting').fill('not on a Sunday');
    await card.getByRole('button', { name: 'Reject' }).click();
    await waitForStatus(lastCall(page), 'rejected');
    await finalAnswer(page, 'not on a Sunday');
    expect(toolMessages(fake.chatRequests().at(-1)).join('\n')).toContain('not on a Sunday');
    await screenshot(page, 'e2e-reject-with-reason');
  });

  it('result approval: the user sees the result before the model does', async () => {
    await newChat(page);
    const before = fake.chatRequests().length;
    await send(page, 'call script_review {"topic": "rockets"}');
    const card = page.getByTestId('result-approval');
    await card.waitFor();
    await expect(card.textContent()).resolves.toContain('the launch code is 0000');
    // Nothing went to the model while the card waits.
    expect(fake.chatRequests().length).toBe(before + 1);
    await screenshot(page, 'e2e-result-approval');
    expect(await seriousViolations(page)).toEqual([]);
    await card.getByRole('button', { name: 'Approve' }).click();
    await finalAnswer(page, 'launch code');
    expect(toolMessages(fake.chatRequests().at(-1)).join('\n')).toContain('the launch code is 0000');
  });

  it('approve for this session, then the same call runs without a card', async () => {
    await newChat(page);
    await send(page, 'call script_echo {"text": "twice"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    await card.getByRole('button', { name: 'Approve for this session' }).click();
    await finalAnswer(page, 'echo: twice');

    const requests = fake.chatRequests().length;
    await send(page, 'call script_echo {"text": "twice"}');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="tool-call"][data-status="done"]').length >= 2, undefined, { timeout: 20_000 });
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="assistant-message"]').length >= n, 4);
    expect(await page.getByTestId('execution-approval').count()).toBe(0);
    expect(fake.chatRequests().length).toBe(requests + 2);
    await screenshot(page, 'e2e-approve-for-session');
  });

  it('several parallel calls show several cards, answered in any order', async () => {
    await newChat(page);
    await send(page, 'parallel 3');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="execution-approval"]').length === 3, undefined, { timeout: 20_000 });
    await screenshot(page, 'e2e-parallel-cards');
    const card = (text: string) => page.getByTestId('execution-approval').filter({ hasText: text });
    await card('parallel 3').getByRole('button', { name: 'Approve once' }).click();
    await card('parallel 1').getByRole('button', { name: 'Reject' }).click();
    await card('parallel 2').getByRole('button', { name: 'Approve once' }).click();
    await page.getByTestId('assistant-message').filter({ hasText: FINAL_PREFIX }).last().waitFor({ timeout: 20_000 });
    const statuses = await page.getByTestId('tool-call').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    expect(statuses).toEqual(['rejected', 'done', 'done']);
    const results = toolMessages(fake.chatRequests().at(-1)).join('\n');
    expect(results).toContain('echo: parallel 2');
    expect(results).toContain('echo: parallel 3');
  });

  it('Stop aborts the turn and the pending cards disappear (Esc in the box does not: issue 25)', async () => {
    await newChat(page);
    await send(page, 'parallel 2');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="execution-approval"]').length === 2, undefined, { timeout: 20_000 });
    await page.getByTestId('composer').press('Escape');
    await page.waitForTimeout(200);
    expect(await page.getByTestId('execution-approval').count()).toBe(2);
    await page.getByTestId('abort').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="execution-approval"]').length === 0, undefined, { timeout: 20_000 });
    await page.getByTestId('send').waitFor();
    const statuses = await page.getByTestId('tool-call').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    // Stopping the turn is the user's cancel (issue 14): the calls read "cancelled", never "done".
    expect(statuses.length).toBe(2);
    expect(statuses.every((s) => s === 'rejected' || s === 'cancelled'), statuses.join(', ')).toBe(true);
    await screenshot(page, 'e2e-abort-drops-cards');
  });

  it('an XSS payload in a tool result and in model text renders as text', async () => {
    await newChat(page);
    await send(page, 'call script_xss {}');
    await waitForStatus(lastCall(page), 'done');
    await finalAnswer(page, '<img src=x onerror=');
    await lastCall(page).getByTestId('tool-result').locator('summary').click();
    const chat = page.locator('section.chat');
    expect(await chat.locator('img, script:not([src]), b').count()).toBe(0);
    await expect(lastCall(page).getByTestId('tool-result').textContent()).resolves.toContain('<script>window.__xss=2</script>');
    await expect(page.getByTestId('assistant-message').last().textContent()).resolves.toContain('<img src=x onerror="window.__xss=1">');
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await screenshot(page, 'e2e-xss-as-text');
  });

  it('always allow this tool: later calls with other arguments run without a card, and Settings shows it', async () => {
    await newChat(page);
    await send(page, 'call script_note {"text": "first"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    await card.getByRole('button', { name: 'Always allow this tool' }).click();
    await finalAnswer(page, 'noted: first');

    await newChat(page);
    await send(page, 'call script_note {"text": "second, different"}');
    await finalAnswer(page, 'noted: second, different');
    expect(await page.getByTestId('execution-approval').count()).toBe(0);

    await openPanel(page, 'settings');
    await page.locator('[data-testid="group-item"][data-group="script"]').getByRole('button', { name: 'Tools & policies' }).click();
    await expect(page.getByLabel('Execution policy for script_note').inputValue()).resolves.toBe('auto');
    await screenshot(page, 'e2e-always-allow');
  });
});
