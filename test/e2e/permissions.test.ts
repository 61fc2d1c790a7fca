// Permissions in the app (Chromium, real runtime in browser mode, fake model): "Always allow →
// calls like this" keeps an editable allow rule, and the chat header's level switch applies to the
// next call.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { lastCall, newChat, openPanel, send, waitForStatus } from './support/chat-page.ts';

let app: E2EApp;
let page: Page;

beforeAll(async () => {
  app = await startE2EApp({ settings: { toolRules: [{ action: 'deny', tool: 'script_note', where: [{ path: 'text', regex: 'secret' }], reason: 'no secrets in notes' }] } });
  ({ page } = app);
});

afterAll(async () => {
  await app?.close();
});

const cardCount = () => page.getByTestId('execution-approval').count();

describe('permissions in the app', () => {
  it('"Always allow → calls like this" keeps the edited pattern as a rule: like calls run, others ask', async () => {
    await send(page, 'call script_echo {"text": "hello world"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    await card.getByRole('button', { name: 'Always allow → …calls like this' }).click();
    const pattern = card.getByLabel('Pattern for text');
    expect(await pattern.inputValue()).toBe('hello world');
    await pattern.fill('hello *');
    await card.getByRole('button', { name: 'Allow calls like this' }).click();
    await waitForStatus(lastCall(page), 'done');
    const stored = JSON.parse(readFileSync(join(app.home, 'settings.json'), 'utf8')) as { toolRules: unknown[] };
    expect(stored.toolRules.at(-1)).toEqual({ action: 'allow', tool: 'script_echo', where: [{ path: 'text', glob: 'hello *' }] });

    await newChat(page);
    await send(page, 'call script_echo {"text": "hello there"}');
    await waitForStatus(lastCall(page), 'done');
    expect(await cardCount()).toBe(0);
    await send(page, 'call script_echo {"text": "goodbye"}');
    await page.getByTestId('execution-approval').waitFor();
    await page.getByTestId('execution-approval').getByRole('button', { name: 'Reject' }).click();
    await waitForStatus(lastCall(page), 'rejected');
  });

  it('the level switch applies to the next call; a deny rule wins at every level and says so', async () => {
    await newChat(page);
    const level = page.getByTestId('permission-level');
    await level.selectOption('trusted');
    await send(page, 'call script_echo {"text": "trusted run"}');
    await waitForStatus(lastCall(page), 'done');
    expect(await cardCount()).toBe(0);
    await level.selectOption('ask');
    await send(page, 'call script_echo {"text": "trusted run"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    await card.getByRole('button', { name: 'Approve once' }).click();
    await waitForStatus(lastCall(page), 'done');
    await level.selectOption('trusted');
    await send(page, 'call script_note {"text": "my secret"}');
    await waitForStatus(lastCall(page), 'rejected');
    expect(await lastCall(page).getByTestId('reject-reason').textContent()).toBe('Denied by rule 1: no secrets in notes');
    expect(await cardCount()).toBe(0);
    // The level is stored with the chat.
    await page.reload();
    await page.getByTestId('composer').waitFor();
    expect(await page.getByTestId('permission-level').inputValue()).toBe('trusted');
  });

  it('Settings → Rules lists, tests, adds, reorders and saves rules; a bad regex is named, not saved', async () => {
    await openPanel(page, 'settings');
    const section = page.getByTestId('rules-section');
    await section.waitFor();
    expect(await section.getByTestId('rule-row').count()).toBe(2);
    await section.getByLabel('Tool to test').fill('script_note');
    await section.getByLabel('Arguments to test').fill('{"text": "my secret plan"}');
    await section.getByRole('button', { name: 'Test', exact: true }).click();
    await expect.poll(() => section.getByTestId('rule-verdict').textContent()).toBe('deny by rule 1: no secrets in notes');

    await section.getByRole('button', { name: '+ Add rule' }).click();
    await section.getByLabel('Rule 3 action').selectOption('deny');
    await section.getByLabel('Rule 3 tool').fill('script_echo');
    await section.getByLabel('Rule 3 tests').fill('text=~(unclosed');
    await section.getByRole('button', { name: 'Save rules' }).click();
    await expect.poll(() => section.getByRole('alert').textContent()).toContain('Rule 3: the regex (unclosed does not compile');
    await section.getByLabel('Rule 3 tests').fill('text~bad*');
    await section.getByLabel('Rule 3 reason').fill('no bad words');
    await section.getByRole('button', { name: 'Move rule 3 up' }).click();
    await section.getByRole('button', { name: 'Move rule 2 up' }).click();
    // Unsaved rows are what the test box checks.
    await section.getByLabel('Tool to test').fill('script_echo');
    await section.getByLabel('Arguments to test').fill('{"text": "bad idea"}');
    await section.getByRole('button', { name: 'Test', exact: true }).click();
    await expect.poll(() => section.getByTestId('rule-verdict').textContent()).toBe('deny by rule 1: no bad words');
    await section.getByRole('button', { name: 'Save rules' }).click();
    await expect.poll(() => (JSON.parse(readFileSync(join(app.home, 'settings.json'), 'utf8')) as { toolRules: Array<{ tool: string }> }).toolRules.map((r) => r.tool)).toEqual([
      'script_echo',
      'script_note',
      'script_echo',
    ]);
  });

  it('Settings → Audit log shows the decisions, filtered by decision', async () => {
    await openPanel(page, 'settings');
    const section = page.getByTestId('audit-section');
    await section.getByLabel('Filter by decision').selectOption('denied');
    await section.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => section.getByTestId('audit-entry').count()).toBe(1);
    expect(await section.getByTestId('audit-entry').textContent()).toContain('script_note');
    expect(await section.getByTestId('audit-entry').textContent()).toContain('rule 1');
    await section.getByLabel('Filter by decision').selectOption('');
    await section.getByLabel('Filter by tool or server').fill('script_echo');
    await section.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => section.getByTestId('audit-entry').count()).toBeGreaterThanOrEqual(4);
  });

  it('Settings → Tool sets adds a set (a bad name is named, not saved); picked in a chat, its level applies', async () => {
    await openPanel(page, 'settings');
    const section = page.getByTestId('tool-sets-section');
    await section.waitFor();
    await section.getByRole('button', { name: '+ Add tool set' }).click();
    await section.getByLabel('Tool set 1 name').fill('echo only');
    await section.getByLabel('Tool set 1 tools').fill('script_echo, script_echo');
    await section.getByLabel('Tool set 1 level').selectOption('trusted');
    await section.getByRole('button', { name: 'Save tool sets' }).click();
    await expect.poll(() => section.getByRole('alert').textContent()).toContain('a name has no spaces');
    expect((JSON.parse(readFileSync(join(app.home, 'settings.json'), 'utf8')) as { toolSets?: unknown[] }).toolSets ?? []).toEqual([]);
    await section.getByLabel('Tool set 1 name').fill('echo-only');
    await section.getByRole('button', { name: 'Save tool sets' }).click();
    await expect
      .poll(() => (JSON.parse(readFileSync(join(app.home, 'settings.json'), 'utf8')) as { toolSets?: unknown[] }).toolSets)
      .toEqual([{ name: 'echo-only', tools: ['script_echo'], level: 'trusted' }]);
    await page.keyboard.press('Escape');
    await section.waitFor({ state: 'hidden' });

    await newChat(page);
    await page.getByTestId('tool-set').selectOption('echo-only');
    await expect.poll(() => page.getByTestId('permission-level').locator('option:checked').textContent()).toBe("The tool set's (Trusted)");
    await send(page, 'call script_echo {"text": "from the set"}');
    await waitForStatus(lastCall(page), 'done');
    expect(await cardCount()).toBe(0);

    // The message box's menu offers the sets too: picked there, the header follows, the box empties.
    await newChat(page);
    const box = page.getByTestId('composer');
    await box.fill('/toolset');
    await page.getByTestId('slash-menu').getByRole('option', { name: 'tool set /toolset echo-only' }).click();
    expect(await box.inputValue()).toBe('/toolset echo-only ');
    await box.press('Enter');
    await expect.poll(() => page.getByTestId('tool-set').inputValue()).toBe('echo-only');
    await expect.poll(() => box.inputValue()).toBe('');
  });
});
