// The Tools panel in Chromium against the real runtime: a Run form generated from the tool's
// schema runs through the session's executor, and a three-layer tool created in the UI is called.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { screenshot } from './support/screenshots.ts';
import { FINAL_PREFIX } from './support/fake-model.ts';
import { lastCall, openPanel, send, waitForStatus } from './support/chat-page.ts';

let app: E2EApp;
let page: Page;

beforeAll(async () => {
  app = await startE2EApp();
  ({ page } = app);
});

afterAll(async () => {
  await app?.close();
});

const DEFINITION = JSON.stringify(
  {
    id: 'shout',
    description: 'Says the text loudly.',
    parameters: { type: 'object', properties: { text: { type: 'string', description: 'What to shout' } }, required: ['text'] },
  },
  null,
  2,
);
const EXECUTION = "text = '{text}'\nprint(text.upper() + '!')\n";

describe('the Tools panel', () => {
  it("runs a tool from its schema form through the session's executor", async () => {
    await openPanel(page, 'tools');
    const item = page.locator('[data-testid="tool-item"][data-tool="script_echo"]');
    await item.locator('button.tool-open').click();
    const form = item.getByTestId('schema-form');
    await form.locator('[name="text"]').fill('from the form');
    await form.getByTestId('run-tool').click();
    // Same approvals as the chat: the card shows up inline in the current session.
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    await expect(card.textContent()).resolves.toContain('from the form');
    await card.getByRole('button', { name: 'Approve once' }).click();
    const result = item.getByTestId('run-result');
    await result.waitFor();
    await expect(result.textContent()).resolves.toContain('echo: from the form');
    await waitForStatus(lastCall(page), 'done');
    await screenshot(page, 'e2e-tools-panel-run');
  });

  it('a run from the form is cancelled from its block in the chat, alone', async () => {
    await openPanel(page, 'tools');
    const item = page.locator('[data-testid="tool-item"][data-tool="script_slow"]');
    await item.locator('button.tool-open').click();
    const form = item.getByTestId('schema-form');
    await form.locator('[name="seconds"]').fill('60');
    await form.getByTestId('run-tool').click();
    const call = lastCall(page);
    await waitForStatus(call, 'running');
    await call.getByRole('button', { name: 'Cancel' }).click();
    // Issue 14: a call the user stopped says "cancelled", not "error".
    await waitForStatus(call, 'cancelled');
    await expect(call.getByTestId('tool-result').textContent()).resolves.toContain('cancelled by the user');
    const result = item.getByTestId('run-result');
    await result.waitFor();
    await expect(result.textContent()).resolves.toContain('cancelled by the user');
    await screenshot(page, 'e2e-tools-panel-cancel');
  });

  it('creates a three-layer tool in the UI and the model calls it', async () => {
    await openPanel(page, 'tools');
    await page.getByTestId('new-tool').click();
    const form = page.getByTestId('new-tool-form');
    await form.getByLabel('Format').selectOption('three-layer');
    await form.getByLabel('Tool name').fill('shout');
    await form.getByTestId('create-tool').click();
    const editor = page.getByTestId('tool-editor');
    await editor.waitFor();
    await editor.getByRole('tab', { name: 'definition.json' }).click();
    await editor.getByTestId('tool-file-editor').fill(DEFINITION);
    await editor.getByRole('tab', { name: 'execution.py' }).click();
    await editor.getByTestId('tool-file-editor').fill(EXECUTION);
    await editor.getByTestId('save-tool').click();
    await editor.getByText('Saved; the tool reloads.').waitFor();
    await page.locator('[data-testid="tool-item"][data-tool="shout"]').waitFor({ timeout: 20_000 });
    await screenshot(page, 'e2e-three-layer-created');

    // New groups start disabled: switch its group on in Settings.
    await openPanel(page, 'settings');
    const groupName = await page.evaluate(() => {
      const items = Array.from(document.querySelectorAll('[data-testid="group-item"]'));
      return items.map((i) => i.getAttribute('data-group')).find((name) => name === 'custom' || name === 'shout') ?? null;
    });
    expect(groupName).not.toBeNull();
    const switchEl = page.getByTestId(`group-toggle-${groupName}`);
    if (!(await switchEl.isChecked())) await switchEl.click();
    await page.waitForFunction((name) => (document.querySelector(`[data-testid="group-toggle-${name}"]`) as HTMLInputElement).checked, groupName);

    await send(page, 'call shout {"text": "hello there"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    await card.getByRole('button', { name: 'Approve once' }).click();
    await waitForStatus(lastCall(page), 'done');
    const answer = page.getByTestId('assistant-message').filter({ hasText: FINAL_PREFIX }).last();
    await answer.waitFor();
    await expect(answer.textContent()).resolves.toContain('HELLO THERE!');
    await screenshot(page, 'e2e-three-layer-called');
  });
});
