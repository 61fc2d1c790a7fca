// The chat app around the tool flow, in Chromium against the real runtime (tooldesk serve) and the
// fake OpenAI server: model per chat, branches, an image attachment, export, search by message
// text, a CLI session appearing by itself, and nothing lost while the runtime is down.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FakeOpenAIServer } from '../support/fake-openai-server.ts';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { startAppServer } from './support/app-server.ts';
import { newChat, send } from './support/chat-page.ts';

let app: E2EApp;
let fake: FakeOpenAIServer;
let page: Page;
const root = fileURLToPath(new URL('../../', import.meta.url));
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  app = await startE2EApp({ fake: { models: ['fake-model', 'fake-vision-large'] } });
  ({ fake, page } = app);
});

afterAll(async () => {
  await app?.close();
});

const lastAnswer = (p: Page) => p.getByTestId('assistant-message').last();
const userRequests = () => fake.chatRequests().map((r) => r.body);

describe('chat app', () => {
  it('"+ New chat" stores nothing until the first message; the Model picker sets the model the request uses', async () => {
    await newChat(page);
    const listed = await page.getByTestId('session-item').count();
    await page.getByTestId('model-picker').click();
    await page.getByTestId('model-search').fill('vision');
    await page.getByTestId('model-option').filter({ hasText: 'fake-vision-large' }).click();
    await expect(page.getByTestId('model-current').textContent()).resolves.toBe('fake-vision-large');
    expect(await page.getByTestId('session-item').count()).toBe(listed);
    await send(page, 'hello picker');
    await lastAnswer(page).getByText('You said: hello picker').waitFor();
    expect(userRequests().at(-1)!.model).toBe('fake-vision-large');
    await lastAnswer(page).getByTestId('message-model').getByText('fake-vision-large').waitFor();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="session-item"]').length === n + 1, listed);
    // New chats start with the last choice.
    await newChat(page);
    await expect(page.getByTestId('model-current').textContent()).resolves.toBe('fake-vision-large');
  });

  it('Regenerate keeps both answers; the ‹ 1/2 › switcher moves between them', async () => {
    await send(page, 'branch me');
    await lastAnswer(page).getByText('You said: branch me').waitFor();
    const before = fake.chatRequests().length;
    await lastAnswer(page).hover();
    await lastAnswer(page).getByRole('button', { name: 'Regenerate' }).click();
    await page.getByTestId('branch-position').getByText('2/2').waitFor();
    expect(fake.chatRequests().length).toBe(before + 1);
    await page.getByRole('button', { name: 'Previous branch' }).click();
    await page.getByTestId('branch-position').getByText('1/2').waitFor();
    await page.getByRole('button', { name: 'Next branch' }).click();
    await page.getByTestId('branch-position').getByText('2/2').waitFor();
  });

  it('an attached image reaches the model as an image part and shows as a chip', async () => {
    await page.getByTestId('attach-input').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('attachment-chip').getByText('dot.png').waitFor();
    await send(page, 'what is in the picture?');
    await page.getByTestId('row-user').last().getByTestId('attachment-chip').getByText('dot.png').waitFor();
    await lastAnswer(page).getByText('You said: what is in the picture?').waitFor();
    const user = userRequests().at(-1)!.messages.at(-1);
    expect(user.content).toEqual([
      { type: 'text', text: 'what is in the picture?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
    ]);
  });

  it('Export downloads the chat as Markdown', async () => {
    await page.getByTestId('export').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-md').click()]);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(download.suggestedFilename()).toMatch(/\.md$/);
    expect(text).toContain('## User\n\nbranch me');
    expect(text).toContain('You said: what is in the picture?');
  });

  it('search finds a session by a line of its messages, not only its title', async () => {
    await page.getByTestId('session-search').fill('picture');
    const hit = page.getByTestId('session-item').filter({ hasText: 'what is in the picture?' });
    await hit.waitFor();
    await page.getByTestId('session-search').fill('');
  });

  it('a session made from the CLI shows up in the open app without a click', async () => {
    const before = await page.getByTestId('session-item').count();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [join(root, 'electron/cli/bin.mjs'), 'chat', 'from the terminal'], { cwd: root, env: { ...process.env, TOOLDESK_HOME: app.home }, stdio: 'ignore' });
      child.on('close', resolve);
    });
    expect(code).toBe(0);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="session-item"]').length === n + 1, before, { timeout: 10_000 });
    await page.getByTestId('session-item').filter({ hasText: 'from the terminal' }).waitFor();
  });

  it('a message sent while the runtime is down stays in the box, is sent once it is back, and the tab reconnects by itself', async () => {
    await app.server.stop();
    await page.getByText(/connecting…|disconnected/).waitFor();
    await send(page, 'sent while offline');
    await page.getByTestId('send-waiting').waitFor();
    await expect(page.getByTestId('composer').inputValue()).resolves.toBe('sent while offline');
    // npm start again: the same port and token (remembered), so this very tab reconnects.
    app.server = await startAppServer({ home: app.home, port: 'remembered' });
    await lastAnswer(page).getByText('You said: sent while offline').waitFor({ timeout: 30_000 });
    await expect(page.getByTestId('composer').inputValue()).resolves.toBe('');
    await expect(page.getByTestId('row-user').filter({ hasText: 'sent while offline' }).count()).resolves.toBe(1);
    expect(userRequests().filter((b) => JSON.stringify(b.messages.at(-1)).includes('sent while offline'))).toHaveLength(1);
  });
});
