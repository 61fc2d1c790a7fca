// Message actions and chat features in Chromium against the real runtime (tooldesk serve) and the
// fake OpenAI server: Edit and resend (the old continuation kept as a branch), Delete, presets from
// "Chat settings" reaching the model's request, and Export as JSON with the tool calls in it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { FakeOpenAIServer } from '../support/fake-openai-server.ts';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { FINAL_PREFIX } from './support/fake-model.ts';
import { answerDialog, lastCall, newChat, send, waitForStatus } from './support/chat-page.ts';

let app: E2EApp;
let fake: FakeOpenAIServer;
let page: Page;

/** Native dialogs the page opened: none (Electron has no window.prompt; issue 25). */
const nativeDialogs: string[] = [];

beforeAll(async () => {
  app = await startE2EApp();
  ({ fake, page } = app);
  page.on('dialog', (dialog) => {
    nativeDialogs.push(dialog.type());
    void dialog.dismiss();
  });
});

afterAll(async () => {
  await app?.close();
  expect(nativeDialogs).toEqual([]);
});

const answers = (p: Page) => p.getByTestId('assistant-message');
const userRow = (p: Page, text: string) => p.getByTestId('row-user').filter({ hasText: text });
const lastRequest = () => fake.chatRequests().at(-1)!.body as { messages: Array<{ role: string; content: unknown }>; temperature?: number; max_tokens?: number };
const said = (request: ReturnType<typeof lastRequest>) => request.messages.filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));

/** Hovers a message so its actions show, then presses one of them. */
async function action(row: Locator, name: string): Promise<void> {
  await row.hover();
  await row.getByRole('button', { name, exact: true }).click();
}


describe('message actions and chat features', () => {
  it('Edit a user message and send it again: a new answer, the old one kept as a branch behind "‹ 1/2 ›"', async () => {
    await newChat(page);
    await send(page, 'first version');
    await answers(page).filter({ hasText: 'You said: first version' }).waitFor();
    await send(page, 'a follow-up');
    await answers(page).filter({ hasText: 'You said: a follow-up' }).waitFor();

    // Esc in the edit box gives up the edit: nothing is sent, the message is as it was.
    const requestsBefore = fake.chatRequests().length;
    await action(userRow(page, 'first version'), 'Edit');
    const box = page.getByLabel('Edit message');
    await box.fill('never sent');
    await box.press('Escape');
    await box.waitFor({ state: 'detached' });
    await userRow(page, 'first version').waitFor();
    expect(fake.chatRequests().length).toBe(requestsBefore);

    await action(userRow(page, 'first version'), 'Edit');
    await box.fill('second version');
    await page.getByRole('button', { name: 'Save and send' }).click();
    await answers(page).filter({ hasText: 'You said: second version' }).waitFor();
    // The model got the edited message, without the old one or what followed it.
    expect(said(lastRequest())).toEqual(['second version']);
    // Only the new branch is shown; the follow-up belonged to the old one.
    await expect(page.getByTestId('row-user').allTextContents()).resolves.toEqual([expect.stringContaining('second version')]);
    const switcher = userRow(page, 'second version').getByTestId('branch-switcher');
    await expect(switcher.getByTestId('branch-position').textContent()).resolves.toBe('2/2');

    await userRow(page, 'second version').hover();
    await switcher.getByRole('button', { name: 'Previous branch' }).click();
    await userRow(page, 'first version').getByTestId('branch-position').getByText('1/2').waitFor();
    // The old continuation is all there: both answers and the follow-up.
    await answers(page).filter({ hasText: 'You said: first version' }).waitFor();
    await answers(page).filter({ hasText: 'You said: a follow-up' }).waitFor();
    expect(await answers(page).filter({ hasText: 'You said: second version' }).count()).toBe(0);

    // Editing the old branch again makes a third one beside the other two.
    await action(userRow(page, 'first version'), 'Edit');
    await box.fill('third version');
    await box.press('Enter');
    await answers(page).filter({ hasText: 'You said: third version' }).waitFor();
    await userRow(page, 'third version').getByTestId('branch-position').getByText('3/3').waitFor();
    await userRow(page, 'third version').hover();
    await userRow(page, 'third version').getByRole('button', { name: 'Previous branch' }).click();
    await userRow(page, 'second version').getByTestId('branch-position').getByText('2/3').waitFor();
    expect(await page.getByTestId('row-user').filter({ hasText: 'a follow-up' }).count()).toBe(0);

    // The next turn continues the shown branch.
    await send(page, 'after the switch');
    await answers(page).filter({ hasText: 'You said: after the switch' }).waitFor();
    expect(said(lastRequest())).toEqual(['second version', 'after the switch']);

    // The branch survives a reload of the page (the session file keeps the tree).
    await page.reload();
    await userRow(page, 'second version').getByTestId('branch-position').getByText('2/3').waitFor({ timeout: 20_000 });
  });

  it('Delete a message: it leaves the chat, the model no longer gets it, and it stays gone after a reload', async () => {
    await newChat(page);
    await send(page, 'keep this one');
    await answers(page).filter({ hasText: 'You said: keep this one' }).waitFor();
    await send(page, 'forget this one');
    await answers(page).filter({ hasText: 'You said: forget this one' }).waitFor();

    await action(userRow(page, 'forget this one'), 'Delete');
    await answerDialog(page, true);
    await userRow(page, 'forget this one').waitFor({ state: 'detached' });
    // "What follows it stays": its answer is still shown.
    await answers(page).filter({ hasText: 'You said: forget this one' }).waitFor();

    await send(page, 'what is left?');
    await answers(page).filter({ hasText: 'You said: what is left?' }).waitFor();
    expect(said(lastRequest())).toEqual(['keep this one', 'what is left?']);

    // Dismissing the question deletes nothing.
    await action(userRow(page, 'keep this one'), 'Delete');
    await answerDialog(page, false);
    await page.reload();
    await userRow(page, 'what is left?').waitFor({ timeout: 20_000 });
    await userRow(page, 'keep this one').waitFor();
    expect(await userRow(page, 'forget this one').count()).toBe(0);
  });

  it('"Save as preset" in "Chat settings", then picked for a new chat: the model gets its system prompt and temperature', async () => {
    await newChat(page);
    await page.getByRole('button', { name: 'Chat settings' }).click();
    const panel = page.getByTestId('chat-settings');
    await panel.getByLabel('System prompt').fill('You are a careful pirate.');
    await panel.getByLabel('Temperature').fill('0.3');
    await panel.getByLabel('Max tokens').fill('321');
    await panel.getByRole('button', { name: 'Save as preset' }).click();
    await answerDialog(page, { text: 'Pirate' });
    await expect.poll(() => JSON.parse(readFileSync(join(app.home, 'settings.json'), 'utf8')).chatPresets).toEqual([{ name: 'Pirate', systemPrompt: 'You are a careful pirate.', temperature: 0.3, maxTokens: 321 }]);
    await panel.getByRole('button', { name: 'Cancel' }).click();

    // A chat started without the preset sends none of it.
    await send(page, 'no preset here');
    await answers(page).filter({ hasText: 'You said: no preset here' }).waitFor();
    expect(lastRequest().temperature).toBeUndefined();
    expect(JSON.stringify(lastRequest().messages[0])).not.toContain('pirate');

    await newChat(page);
    await page.getByRole('button', { name: 'Chat settings' }).click();
    await panel.getByLabel('Preset').selectOption('Pirate');
    await expect(panel.getByLabel('System prompt').inputValue()).resolves.toBe('You are a careful pirate.');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.waitFor({ state: 'detached' });
    await send(page, 'ahoy');
    await answers(page).filter({ hasText: 'You said: ahoy' }).waitFor();
    const request = lastRequest();
    expect(request.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('You are a careful pirate.') });
    expect(request.temperature).toBe(0.3);
    expect(request.max_tokens).toBe(321);

    // The preset stays with that chat: its next turn carries it too.
    await send(page, 'again');
    await answers(page).filter({ hasText: 'You said: again' }).waitFor();
    expect(lastRequest().temperature).toBe(0.3);
  });

  it('Export as JSON: the file holds the messages and the tool calls with their results', async () => {
    await newChat(page);
    await send(page, 'call script_echo {"text": "exported echo"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    await card.getByRole('button', { name: 'Approve once' }).click();
    await waitForStatus(lastCall(page), 'done');
    await answers(page).filter({ hasText: FINAL_PREFIX }).waitFor();

    await page.getByTestId('export').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    expect(download.suggestedFilename()).toMatch(/\.json$/);
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
      format: string;
      messages: Array<{ role: string; content?: string; toolCalls?: Array<{ name: string; args: unknown }>; toolName?: string; result?: { status: string } }>;
    };
    expect(exported.format).toBe('tooldesk-session');
    const [user, call, result, final] = exported.messages;
    expect(user).toMatchObject({ role: 'user', content: 'call script_echo {"text": "exported echo"}' });
    expect(call).toMatchObject({ role: 'assistant', toolCalls: [{ name: 'script_echo', args: { text: 'exported echo' } }] });
    expect(result).toMatchObject({ role: 'tool', toolName: 'script_echo', result: { status: 'SUCCESS' } });
    expect(result!.content).toContain('echo: exported echo');
    expect(final).toMatchObject({ role: 'assistant', content: expect.stringContaining(FINAL_PREFIX) });
    expect(exported.messages).toHaveLength(4);
  });
});
