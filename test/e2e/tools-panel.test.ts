// The Tools panel in Chromium against the real runtime: a Run form generated from the tool's
// schema runs through the session's executor, a three-layer tool created in the UI is called, and
// "New tool" makes Python and module tools (every format `tooldesk tools new` offers) that run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NEW_TOOL_FORMATS } from '../../shared/new-tool-formats.ts';
import { startFileApp } from './support/e2e-app.ts';
import { screenshot } from './support/screenshots.ts';
import { seriousViolations } from './support/axe.ts';
import { FINAL_PREFIX } from './support/fake-model.ts';
import { lastCall, openPanel, send, waitForStatus } from './support/chat-page.ts';

const app = await startFileApp();
const { page } = app;

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
    expect(await seriousViolations(page)).toEqual([]);
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

  it('"New tool" offers every format of `tooldesk tools new` and names a bad name before anything is sent', async () => {
    await openPanel(page, 'tools');
    await page.getByTestId('new-tool').click();
    const form = page.getByTestId('new-tool-form');
    const offered = await form.getByLabel('Format').locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toEqual([...NEW_TOOL_FORMATS, 'skill']);
    await form.getByLabel('Format').selectOption('python');
    await form.getByLabel('Tool name').fill('Not-Snake');
    await expect(form.getByTestId('new-tool-name-rule').textContent()).resolves.toContain('"Not-Snake" is not a valid python tool name: use snake_case');
    await expect(form.getByTestId('create-tool').isDisabled()).resolves.toBe(true);
    // The same name is fine for a module tool: the rule follows the format.
    await form.getByLabel('Format').selectOption('module-ts');
    await expect(form.getByTestId('create-tool').isDisabled()).resolves.toBe(false);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  for (const [format, name] of [
    ['python', 'py_from_form'],
    ['module-ts', 'module_from_form'],
  ] as const) {
    it(`creates a ${format} tool from the form: it is listed, selected, and runs from its Run form`, async () => {
      await openPanel(page, 'tools');
      await page.getByTestId('new-tool').click();
      const form = page.getByTestId('new-tool-form');
      await form.getByLabel('Format').selectOption(format);
      await form.getByLabel('Tool name').fill(name);
      await form.getByTestId('create-tool').click();
      const notice = page.getByTestId('tool-created');
      await notice.waitFor();
      const file = join(app.home, 'tools', `${name}.${format === 'python' ? 'py' : 'ts'}`);
      await expect(notice.textContent()).resolves.toContain(file);
      expect(existsSync(file)).toBe(true);

      const item = page.locator(`[data-testid="tool-item"][data-tool="${name}"]`);
      await item.getByTestId('schema-form').waitFor({ timeout: 20_000 });
      await expect(item.locator('.badge').first().textContent()).resolves.toBe(format === 'python' ? 'python' : 'module');
      // Its group (the file's name) came on: a tool the user just made is meant to be used.
      expect(await item.getByTestId('run-refused-note').count()).toBe(0);
      const run = item.getByTestId('schema-form');
      await run.locator('[name="text"]').fill('made here');
      await run.locator('[name="repeat"]').fill('2');
      // A tools list that changes meanwhile (here: Reload) keeps what was typed in the Run form.
      await page.getByTestId('reload-tools').click();
      await page.getByTestId('reload-tools').getByText('Reload', { exact: true }).waitFor();
      await expect(run.locator('[name="text"]').inputValue()).resolves.toBe('made here');
      await run.getByTestId('run-tool').click();
      const result = item.getByTestId('run-result');
      const card = page.getByTestId('execution-approval');
      await Promise.race([result.waitFor({ timeout: 20_000 }), card.waitFor({ timeout: 20_000 })]);
      if (await card.isVisible()) await card.getByRole('button', { name: 'Approve once' }).click();
      await result.waitFor({ timeout: 20_000 });
      await expect(result.textContent()).resolves.toContain('SUCCESS');
      await expect(result.textContent()).resolves.toContain('made here made here');
      await screenshot(page, `e2e-new-tool-${format}`);
      await notice.getByRole('button', { name: 'Close' }).click();
    });
  }
});
