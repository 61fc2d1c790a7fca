// MCP Apps in Chromium against the real runtime (browser mode) and the real example server
// @modelcontextprotocol/server-basic-vanillajs: the app renders the tool's result inside the
// block's sandboxed frame, cannot reach Tooldesk's document, calls its server's tool through the
// approval card, renders again after a reload without calling the tool again; an untrusted
// server's app waits for "Show this app"; an app that floods is stopped with a clear block;
// Fullscreen covers the window and Esc leaves it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { fixture } from '../support/mcp-servers.ts';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { screenshot } from './support/screenshots.ts';
import { appFrame, lastCall, newChat, openPanel, send, waitForStatus } from './support/chat-page.ts';
import { startStunTurnListener, webrtcAttack } from './support/webrtc-probe.ts';

const BASIC = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js', import.meta.url));

let app: E2EApp;
let page: Page;

beforeAll(async () => {
  app = await startE2EApp({
    settings: {
      mcpServers: {
        basic: { command: process.execPath, args: [BASIC, '--stdio'], trust: true },
        fx: { command: process.execPath, args: [fixture('app-server.mjs')] },
      },
      groupDefaults: { script: true, basic: true, fx: true },
    },
  });
  ({ page } = app);
  // Both servers ready before the first message (they start when their group is on).
  await openPanel(page, 'settings');
  // fx has one tool only for apps: its row counts it apart (issue 25), and says what the app offers.
  const ready = { basic: /^ready with \d+ tools?$/, fx: /^ready with \d+ tools \(1 only for apps\)$/ };
  for (const [name, text] of Object.entries(ready)) {
    const row = page.locator(`[data-testid="mcp-server"][data-server="${name}"]`);
    await row.getByTestId('mcp-state').filter({ hasText: text }).waitFor({ timeout: 30_000 });
    await row.getByTestId('mcp-offer-note').filter({ hasText: /^Counted with elicitation and sampling offered; tooldesk mcp list --status offers neither/ }).waitFor();
  }
  await page.getByTestId('tab-settings').click();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

async function approveLast(p: Page): Promise<void> {
  const card = p.getByTestId('execution-approval').last();
  await card.waitFor({ timeout: 20_000 });
  await card.getByRole('button', { name: 'Approve once' }).click();
}

describe('MCP Apps', () => {
  it('renders the real basic app with the tool result; its document cannot reach Tooldesk', async () => {
    await send(page, 'call basic__get-time {}');
    await approveLast(page);
    const call = lastCall(page);
    await waitForStatus(call, 'done');
    const block = call.getByTestId('mcp-app');
    await block.waitFor({ timeout: 20_000 });
    const frame = await appFrame(page, 'Server Time');
    // The app shows the time the tool returned (ui/notifications/tool-result).
    await expect.poll(() => frame.evaluate(() => document.getElementById('server-time')?.textContent), { timeout: 20_000 }).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const reach = await frame.evaluate(() => {
      const tryIt = (f: () => unknown) => {
        try {
          return `read ${String(f())}`;
        } catch (error) {
          return `blocked ${(error as Error).name}`;
        }
      };
      return {
        top: tryIt(() => window.top!.document.title),
        parent: tryIt(() => window.parent.document.body),
        storage: tryIt(() => window.localStorage.length),
        origin: window.origin,
      };
    });
    expect(reach.top).toBe('blocked SecurityError');
    expect(reach.parent).toBe('blocked SecurityError');
    expect(reach.storage).toMatch(/^blocked/);
    expect(reach.origin).toBe('null');
    // No network unless declared: not even Tooldesk's own server or the sandbox origin.
    const fetched = await frame.evaluate(async (urls) => Promise.all(urls.map((u) => fetch(u).then(() => 'fetched', () => 'blocked'))), [page.url(), frame.url()]);
    expect(fetched).toEqual(['blocked', 'blocked']);
    // It cannot navigate Tooldesk's window either (no allow-top-navigation).
    await frame.evaluate(() => {
      try {
        window.top!.location.href = 'https://example.com/';
      } catch {
        /* refused */
      }
    });
    await page.waitForTimeout(300);
    expect(new URL(page.url()).origin).toBe(new URL(app.server.url).origin);
    // The frame in Tooldesk's page is on another origin and sandboxed without allow-same-origin.
    const outer = await block.locator('iframe').evaluate((f: HTMLIFrameElement) => ({ src: f.src, sandbox: f.getAttribute('sandbox') }));
    expect(new URL(outer.src).origin).not.toBe(new URL(page.url()).origin);
    expect(outer.sandbox).toBe('allow-scripts allow-forms');
    // No network unless declared.
    await expect(block.getByTestId('mcp-app-network').textContent()).resolves.toContain("connect-src 'none'");
    await screenshot(page, 'e2e-mcp-app');
    // Fullscreen covers the window less a small margin (issue 36 §4), the app larger than inline; Esc and the button leave it.
    const inline = (await block.locator('iframe').boundingBox())!;
    await block.getByRole('button', { name: 'Fullscreen' }).click();
    await expect(block.getAttribute('class')).resolves.toContain('fullscreen');
    const view = page.viewportSize()!;
    await expect.poll(async () => {
      const box = (await block.boundingBox())!;
      return box.x <= 16 && box.y <= 16 && box.width >= view.width - 32 && box.height >= view.height - 32;
    }).toBe(true);
    const full = (await block.locator('iframe').boundingBox())!;
    expect(full.height).toBeGreaterThan(Math.max(inline.height, view.height - 120));
    expect(full.width).toBeGreaterThanOrEqual(view.width - 60);
    await screenshot(page, 'e2e-mcp-app-fullscreen');
    await page.keyboard.press('Escape');
    await expect.poll(() => block.getAttribute('class')).not.toContain('fullscreen');
    expect(await block.evaluate((el) => el.getBoundingClientRect().width < window.innerWidth - 100)).toBe(true);
    await block.getByRole('button', { name: 'Fullscreen' }).click();
    await block.getByRole('button', { name: 'Exit fullscreen' }).click();
    await expect(block.getAttribute('class')).resolves.not.toContain('fullscreen');
    // "Show as text" swaps the app for the tool's text.
    await block.getByTestId('mcp-app-as-text').click();
    // The server's own text (main keeps it beside structuredContent): the time.
    await expect(block.getByTestId('mcp-app-text').textContent()).resolves.toMatch(/\d{4}-\d\d-\d\dT/);
    await block.getByTestId('mcp-app-as-text').click();
  });

  it('the app cannot reach the network through WebRTC: nothing arrives at a STUN/TURN listener on loopback', async () => {
    const listener = await startStunTurnListener();
    try {
      const ports = { udp: listener.udpPort, tcp: listener.tcpPort };
      // The listener hears a page that may use WebRTC (a blank page of the same browser).
      const control = await page.context().newPage();
      await control.goto('about:blank');
      expect((await control.evaluate(webrtcAttack, ports)).window).toBe('connection made');
      await expect.poll(() => listener.arrived().udp, { timeout: 10_000 }).toBeGreaterThan(0);
      await control.close();
      const before = listener.arrived();
      const frame = await appFrame(page, 'Server Time');
      const tried = await frame.evaluate(webrtcAttack, ports);
      expect(tried).toEqual({
        window: 'no RTCPeerConnection',
        'webkit prefix': 'no RTCPeerConnection',
        // Frames it makes get new opaque origins (the sandbox): out of its reach, or scrubbed.
        'window[0]': expect.stringMatching(/^(no RTCPeerConnection|unreachable: SecurityError)$/),
        'iframe contentWindow': expect.stringMatching(/^(no RTCPeerConnection|unreachable: SecurityError)$/),
        'innerHTML iframe': expect.stringMatching(/^(no RTCPeerConnection|unreachable: SecurityError)$/),
        // A srcdoc frame runs its own script in its own realm: the prelude runs there first.
        'srcdoc frame': 'no RTCPeerConnection',
      });
      await page.waitForTimeout(3000);
      expect(listener.arrived()).toEqual(before);
    } finally {
      await listener.close();
    }
  });

  it('a tool call from the app shows an approval card under the app, runs after approval and is marked "from the app"', async () => {
    const call = page.getByTestId('tool-call').filter({ has: page.getByTestId('mcp-app') }).last();
    const frame = await appFrame(page, 'Server Time');
    const before = await frame.evaluate(() => document.getElementById('server-time')?.textContent);
    await frame.evaluate(() => (document.getElementById('get-time-btn') as HTMLButtonElement).click());
    const card = call.getByTestId('execution-approval');
    await card.waitFor({ timeout: 20_000 });
    await expect(card.textContent()).resolves.toContain('basic__get-time');
    const nested = call.getByTestId('tool-reruns').getByTestId('tool-call').last();
    await expect(nested.getByTestId('from-app').textContent()).resolves.toBe('from the app');
    await page.waitForTimeout(300);
    // Nothing ran before the approval.
    expect(await frame.evaluate(() => document.getElementById('server-time')?.textContent)).toBe(before);
    await card.getByRole('button', { name: 'Approve once' }).click();
    await waitForStatus(nested, 'done');
    await expect.poll(() => frame.evaluate(() => document.getElementById('server-time')?.textContent), { timeout: 20_000 }).not.toBe(before);
    // Inspect on the app's call lists what the app said and asked.
    await call.getByRole('button', { name: 'Inspect' }).first().click();
    const messages = call.getByTestId('inspect-app-messages');
    await expect(messages.textContent()).resolves.toMatch(/initialized[\s\S]*tools\/call get-time \{\}/);
    await call.getByRole('button', { name: 'Inspect' }).first().click();
  });

  it('ui/message: the app\'s message goes to the chat only after the user agrees', async () => {
    const call = page.getByTestId('tool-call').filter({ has: page.getByTestId('mcp-app') }).last();
    const frame = await appFrame(page, 'Server Time');
    const users = await page.getByTestId('row-user').count();
    await frame.evaluate(() => (document.getElementById('send-message-btn') as HTMLButtonElement).click());
    const question = call.getByTestId('mcp-app-question');
    await question.waitFor({ timeout: 20_000 });
    await expect(question.textContent()).resolves.toContain('This is message text.');
    await page.waitForTimeout(300);
    expect(await page.getByTestId('row-user').count()).toBe(users);
    await question.getByRole('button', { name: /^Send/ }).click();
    await page.getByTestId('row-user').filter({ hasText: 'This is message text.' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: This is message text.' }).waitFor({ timeout: 20_000 });
  });

  it('after a reload the app renders again from the stored call, without calling the tool again', async () => {
    const calls = await page.getByTestId('tool-call').count();
    const requests = app.fake.chatRequests().length;
    await page.reload();
    await page.getByTestId('composer').waitFor({ timeout: 20_000 });
    if ((await page.getByTestId('mcp-app').count()) === 0) await page.getByTestId('session-item').last().click();
    const block = page.getByTestId('mcp-app').first();
    await block.waitFor({ timeout: 20_000 });
    const frame = await appFrame(page, 'Server Time');
    await expect.poll(() => frame.evaluate(() => document.getElementById('server-time')?.textContent), { timeout: 20_000 }).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await page.getByTestId('tool-call').count()).toBe(calls);
    expect(app.fake.chatRequests().length).toBe(requests);
  });

  it('an untrusted server\'s app waits for "Show this app"; an app that floods is stopped with a clear block', async () => {
    await newChat(page);
    await send(page, 'call fx__flood {}');
    await approveLast(page);
    const call = lastCall(page);
    await waitForStatus(call, 'done');
    const gate = call.getByTestId('mcp-app-gate');
    await gate.waitFor({ timeout: 20_000 });
    expect(await call.locator('iframe').count()).toBe(0);
    await gate.getByTestId('mcp-app-show').click();
    const stopped = call.getByTestId('mcp-app-stopped');
    await stopped.waitFor({ timeout: 20_000 });
    await expect(stopped.textContent()).resolves.toMatch(/This app was stopped: it sent more than 50 messages in one second/);
    expect(await call.locator('iframe').count()).toBe(0);
    await expect(stopped.getByTestId('mcp-app-text').textContent()).resolves.toContain('flood ran');
    await screenshot(page, 'e2e-mcp-app-flood');
  });

  it('an app that throws and never initializes is stopped after 15 s, with the tool\'s text', async () => {
    await send(page, 'call fx__silent {}');
    await approveLast(page);
    const call = lastCall(page);
    await waitForStatus(call, 'done');
    await call.locator('iframe').waitFor({ timeout: 20_000 });
    const stopped = call.getByTestId('mcp-app-stopped');
    await stopped.waitFor({ timeout: 25_000 });
    await expect(stopped.textContent()).resolves.toContain('This app was stopped: it did not start within 15 s.');
    await expect(stopped.getByTestId('mcp-app-text').textContent()).resolves.toContain('silent ran');
    expect(await call.locator('iframe').count()).toBe(0);
  }, 60_000);
});
