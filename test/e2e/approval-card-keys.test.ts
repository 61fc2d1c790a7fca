// Issue 36 §1 and §6, in Chromium: Esc inside "Edit arguments" closes the editor and "Add reason…"
// clears its box — neither answers the card, which still rejects on Esc from the card itself;
// "Calls like this" ticks only the argument that says what the call touches and says in words
// what the rule will match.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFileApp } from './support/e2e-app.ts';
import { seriousViolations } from './support/axe.ts';
import { lastCall, newChat, send, waitForStatus } from './support/chat-page.ts';
import { screenshot } from './support/screenshots.ts';

const app = await startFileApp({
  settings: { permissionOverrides: { script_echo: { executionPolicy: 'ask-always' }, script_read_lines: { executionPolicy: 'ask-always' } } },
});
// A tool like the ones users write: a file path and a line count.
const tool = join(app.home, 'tools', 'read_lines');
mkdirSync(tool, { recursive: true });
writeFileSync(
  join(tool, 'tool.json'),
  JSON.stringify({
    name: 'read_lines',
    description: 'Reads the first lines of a file.',
    parameters: { type: 'object', properties: { lines: { type: 'integer' }, path: { type: 'string' } }, required: ['path'] },
  }),
);
writeFileSync(join(tool, 'script.js'), "process.stdin.resume(); process.stdin.on('end', () => process.stdout.write('read'));\n");
await app.restart();
const { page } = app;
const card = page.getByTestId('execution-approval');
const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim());

describe('Esc inside a card never answers it', () => {
  it('Esc in the argument editor (or on its toggle) closes the editor, drops the edits and leaves the card waiting', async () => {
    await newChat(page);
    await send(page, 'call script_echo {"text": "from the model"}');
    await card.waitFor({ timeout: 20_000 });
    await card.getByRole('button', { name: 'Edit arguments' }).click();
    // The keyboard goes into the editor.
    const field = card.getByLabel(/^text/);
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(' and more');
    await page.keyboard.press('Escape');
    await card.getByTestId('args-editor').waitFor({ state: 'detached' });
    expect(await focusedText()).toBe('Edit arguments');
    // Esc right after clicking the toggle (the keyboard still on it) closes the editor too.
    await card.getByRole('button', { name: 'Edit arguments' }).click();
    await card.getByRole('button', { name: 'Undo edits' }).focus();
    await page.keyboard.press('Escape');
    await card.getByTestId('args-editor').waitFor({ state: 'detached' });
    await page.waitForTimeout(300);
    expect(await lastCall(page).getAttribute('data-status')).toBe('approval');
    expect(await card.count()).toBe(1);
    await screenshot(page, 'e2e-esc-closes-arg-editor');
  });

  it('Esc in "Add reason…" clears and closes the box; Esc on the card itself still rejects', async () => {
    await card.getByRole('button', { name: 'Add reason…' }).click();
    const reason = card.getByLabel('Reason for rejecting');
    await reason.fill('half a reas');
    await page.keyboard.press('Escape');
    await reason.waitFor({ state: 'detached' });
    expect(await focusedText()).toBe('Add reason…');
    await page.waitForTimeout(300);
    expect(await lastCall(page).getAttribute('data-status')).toBe('approval');
    await card.getByRole('button', { name: 'Add reason…' }).click();
    expect(await card.getByLabel('Reason for rejecting').inputValue()).toBe('');
    await card.getByRole('button', { name: 'Approve once' }).focus();
    await page.keyboard.press('Escape');
    await waitForStatus(lastCall(page), 'rejected');
    expect(await lastCall(page).getByTestId('reject-reason').textContent()).not.toContain('half a reas');
  });
});

describe('"Calls like this"', () => {
  it('ticks only the path and says what the rule matches; the rule kept is that one', async () => {
    await newChat(page);
    await send(page, `call script_read_lines {"lines": 2, "path": "${join(app.home, 'notes', 'todo.md')}"}`);
    await card.waitFor({ timeout: 20_000 });
    await card.getByRole('button', { name: 'Always allow → …calls like this' }).click();
    expect(await card.getByLabel('Test path').isChecked()).toBe(true);
    expect(await card.getByLabel('Test lines').isChecked()).toBe(false);
    const summary = card.getByTestId('calls-like-this-summary');
    await expect(summary.textContent()).resolves.toBe(`Allows script_read_lines whenever path is inside ${join(app.home, 'notes')} (any depth); lines can be anything.`);
    await screenshot(page, 'e2e-calls-like-this');
    expect(await seriousViolations(page)).toEqual([]);
    // The words follow the choice.
    await card.getByLabel('Test lines').check();
    await expect(summary.textContent()).resolves.toBe(`Allows script_read_lines whenever lines is exactly “2” and path is inside ${join(app.home, 'notes')} (any depth).`);
    await card.getByLabel('Test lines').uncheck();
    await card.getByRole('button', { name: 'Allow calls like this' }).click();
    await waitForStatus(lastCall(page), 'done');
    const stored = JSON.parse(readFileSync(join(app.home, 'settings.json'), 'utf8')) as { toolRules: unknown[] };
    expect(stored.toolRules.at(-1)).toEqual({ action: 'allow', tool: 'script_read_lines', where: [{ path: 'path', glob: `${join(app.home, 'notes')}/**` }] });
    // Another file in the folder, any line count: no card.
    await send(page, `call script_read_lines {"lines": 40, "path": "${join(app.home, 'notes', 'ideas.md')}"}`);
    await waitForStatus(lastCall(page), 'done');
    expect(await card.count()).toBe(0);
  });
});
