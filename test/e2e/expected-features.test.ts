// Issue 25, "also expected by users", in Chromium: provider presets, the context meter with the
// server's window, a model-made title, pinned and archived chats, search inside attached files,
// image thumbnails and the lightbox (Esc closes it and leaves a waiting card alone). axe-core on
// each changed view: no serious or critical violation.
import { deflateSync, crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { lastCall, newChat, openPanel, send } from './support/chat-page.ts';
import { seriousViolations } from './support/axe.ts';
import { screenshot } from './support/screenshots.ts';
import { e2eScript } from './support/fake-model.ts';
import { fakeTurn } from '../support/fake-openai-server.ts';

let app: E2EApp;
let page: Page;

beforeAll(async () => {
  app = await startE2EApp({
    fake: { models: ['fake-model', 'mystery-model'], modelFields: { 'fake-model': { context_length: 32_768 } }, title: (request) => (JSON.stringify(request.body.messages).includes('hello there') ? 'Greeting the echo' : undefined) },
    settings: { permissionOverrides: { script_echo: { executionPolicy: 'ask-always' } } },
  });
  ({ page } = app);
});

afterAll(async () => {
  await app?.close();
});

/** A PNG of w×h pixels, a colour gradient (something to zoom into). */
function gradientPng(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rows.set([Math.round((255 * x) / w), Math.round((255 * y) / h), 180], y * (w * 3 + 1) + 1 + x * 3);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const item = (title: string) => page.getByTestId('session-item').filter({ hasText: title });

describe('Settings → + Add provider', () => {
  it('starts with an empty Base URL; a preset fills it and says what it needs', async () => {
    await openPanel(page, 'settings');
    const panel = page.getByTestId('settings-panel');
    await panel.getByTestId('add-provider').click();
    const editor = panel.getByTestId('provider-editor').last();
    const baseURL = editor.getByLabel('Base URL');
    await expect(baseURL.inputValue()).resolves.toBe('');
    await expect(baseURL.getAttribute('placeholder')).resolves.toMatch(/\/v1/);
    await editor.getByRole('button', { name: 'Ollama' }).click();
    await expect(baseURL.inputValue()).resolves.toBe('http://127.0.0.1:11434/v1');
    await expect(editor.getByLabel('Provider name').inputValue()).resolves.toBe('Ollama');
    await expect(editor.getByTestId('provider-hint').textContent()).resolves.toContain('port 11434');
    await editor.getByRole('button', { name: 'OpenRouter' }).click();
    await expect(editor.getByTestId('provider-hint').textContent()).resolves.toContain('Needs an API key');
    await editor.scrollIntoViewIfNeeded();
    await screenshot(page, 'e2e-provider-presets');
    expect(await seriousViolations(page)).toEqual([]);
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
  });
});

describe('a chat with the fake model', () => {
  it('the meter shows the window the server lists, with a bar; an unlisted model says "window unknown"', async () => {
    await newChat(page);
    await send(page, 'hello there');
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: hello there' }).waitFor({ timeout: 20_000 });
    const meter = page.getByTestId('context-meter');
    await expect.poll(() => meter.textContent()).toMatch(/^\d+ \/ 33k tokens$/);
    await expect(meter.getAttribute('data-window')).resolves.toBe('server');
    await expect(page.getByRole('meter', { name: 'Context used' }).getAttribute('max')).resolves.toBe('32768');
    // The first exchange gave the chat the model's title.
    await item('Greeting the echo').waitFor({ timeout: 20_000 });
    expect(app.fake.titleRequests.length).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'e2e-context-meter');

    await page.getByTestId('model-picker').click();
    await page.getByTestId('model-option').filter({ hasText: 'mystery-model' }).click();
    await expect.poll(() => meter.textContent()).toMatch(/window unknown$/);
    expect(await page.getByRole('meter').count()).toBe(0);
    await page.getByTestId('model-picker').click();
    await page.getByTestId('model-option').filter({ hasText: 'fake-model' }).first().click();
  });

  it('pinned chats come first; archived ones hide behind "Archived (N)"', async () => {
    await newChat(page);
    await send(page, 'second chat');
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: second chat' }).waitFor({ timeout: 20_000 });
    // The newest is on top until the older one is pinned.
    await item('Greeting the echo').waitFor();
    const titles = () => page.getByTestId('session-item').locator('.session-title').allTextContents();
    await item('Greeting the echo').hover();
    await page.getByRole('button', { name: 'Pin Greeting the echo' }).click();
    await expect.poll(async () => (await titles())[0]).toBe('Greeting the echo');
    await item('Greeting the echo').getByTestId('session-pinned').waitFor();
    await screenshot(page, 'e2e-pinned-chat');

    const second = (await titles()).find((t) => t !== 'Greeting the echo')!;
    await item(second).hover();
    await page.getByRole('button', { name: `Archive ${second}` }).click();
    await item(second).waitFor({ state: 'detached' });
    const toggle = page.getByTestId('archived-toggle');
    await expect(toggle.textContent()).resolves.toBe('Archived (1)');
    await toggle.click();
    await item(second).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await item(second).hover();
    await page.getByRole('button', { name: `Unarchive ${second}` }).click();
    await expect.poll(() => page.getByTestId('session-item').count()).toBe(0);
    await page.getByTestId('archived-toggle').click();
    await item(second).waitFor();
  });

  it('search finds a word only an attached text file holds', async () => {
    // The usual fake model echoes what it got, file text included: this one does not.
    app.fake.setScript(() => fakeTurn.text('Noted.'));
    await newChat(page);
    await page.getByTestId('attach-input').setInputFiles({ name: 'minutes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Minutes\nWe picked the zanzibar plan.\n') });
    await send(page, 'read my notes');
    await page.getByTestId('assistant-message').filter({ hasText: 'Noted.' }).waitFor({ timeout: 20_000 });
    app.fake.setScript(e2eScript);
    await page.getByTestId('session-search').fill('zanzibar');
    const hit = page.getByTestId('session-item').filter({ hasText: 'minutes.md: We picked the zanzibar plan.' });
    await hit.waitFor();
    expect(await page.getByTestId('session-item').count()).toBe(1);
    await page.getByTestId('session-search').fill('');
  });

  it('an attached image shows a thumbnail before and after sending; it opens in a lightbox; Esc closes only that', async () => {
    await newChat(page);
    const png = gradientPng(480, 320);
    await page.getByTestId('attach-input').setInputFiles({ name: 'gradient.png', mimeType: 'image/png', buffer: png });
    const draftThumb = page.getByTestId('attachment-thumb').getByRole('img', { name: 'gradient.png' });
    await draftThumb.waitFor();
    await screenshot(page, 'e2e-attachment-thumbnail');
    // A tool call waits for approval while the lightbox is open.
    await send(page, 'call script_echo {"text": "look"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor({ timeout: 20_000 });
    const sentThumb = page.getByTestId('row-user').last().getByTestId('attachment-thumb');
    await expect.poll(() => sentThumb.locator('img').evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(480);
    await sentThumb.click();
    const box = page.getByTestId('image-lightbox');
    await box.waitFor();
    await box.getByRole('button', { name: 'Zoom in' }).click();
    await expect(box.getByTestId('lightbox-zoom').textContent()).resolves.toMatch(/%$/);
    const [download] = await Promise.all([page.waitForEvent('download'), box.getByRole('button', { name: 'Save' }).click()]);
    expect(download.suggestedFilename()).toBe('gradient.png');
    // Copy puts the image itself on the clipboard, as a PNG of its own size.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    await box.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => box.getByTestId('lightbox-status').textContent()).toBe('Copied');
    const copied = await page.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      const bitmap = await createImageBitmap(await item!.getType('image/png'));
      return { types: item!.types, width: bitmap.width, height: bitmap.height };
    });
    expect(copied).toEqual({ types: ['image/png'], width: 480, height: 320 });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'e2e-image-lightbox');
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'detached' });
    await page.waitForTimeout(300);
    expect(await card.count()).toBe(1);
    expect(await lastCall(page).getAttribute('data-status')).toBe('approval');
    await card.getByRole('button', { name: 'Approve once' }).click();
  });
});
