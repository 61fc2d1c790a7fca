// MCP servers in the app, in Chromium against the real runtime (browser mode): add the real
// "everything" server in Settings → MCP servers, switch it on, see it ready with its tools, then
// the fake model calls one of its tools through the approval card and gets the answer; its image
// tool's picture shows in the tool-call block; one of its prompts runs as `/ev:args-prompt`, and
// one of its resources is attached from the composer.
import { describe, expect, it } from 'vitest';
import { EVERYTHING, fixture } from '../support/mcp-servers.ts';
import { startFileApp } from './support/e2e-app.ts';
import { screenshot } from './support/screenshots.ts';
import { seriousViolations } from './support/axe.ts';
import { FINAL_PREFIX, offeredTools, toolMessages } from './support/fake-model.ts';
import { lastCall, newChat, openPanel, send, waitForStatus } from './support/chat-page.ts';

const { fake, page } = await startFileApp();

describe('MCP servers', () => {
  it('add in Settings → switch on → ready with N tools → a tool call with the approval card', async () => {
    await openPanel(page, 'settings');
    const section = page.getByTestId('mcp-section');
    await section.scrollIntoViewIfNeeded();
    await section.getByTestId('mcp-add-open').click();
    await section.getByTestId('mcp-add-name').fill('ev');
    await section.getByTestId('mcp-add-target').fill(`${process.execPath} ${EVERYTHING} stdio`);
    await section.getByTestId('mcp-add-submit').click();
    const row = section.locator('[data-testid="mcp-server"][data-server="ev"]');
    await row.waitFor();
    await expect(row.getByTestId('mcp-state').textContent()).resolves.toBe('disabled');
    await expect(row.getByTestId('mcp-sandbox').textContent()).resolves.toMatch(/sandboxed: network allowed, home read-only/);

    await row.getByTestId('mcp-toggle-ev').check();
    await row.getByTestId('mcp-state').filter({ hasText: /^ready with \d+ tools$/ }).waitFor({ timeout: 30_000 });
    const state = (await row.getByTestId('mcp-state').textContent())!;
    expect(Number(/(\d+)/.exec(state)![1])).toBeGreaterThan(5);
    await screenshot(page, 'e2e-mcp-settings');
    expect(await seriousViolations(page)).toEqual([]);

    await send(page, 'call ev__get-sum {"a": 20, "b": 22}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor({ timeout: 20_000 });
    await expect(card.textContent()).resolves.toContain('ev__get-sum');
    expect(offeredTools(fake.chatRequests().at(-1))).toContain('ev__get-sum');
    await card.getByRole('button', { name: 'Approve once' }).click();
    await waitForStatus(lastCall(page), 'done');
    await page.getByTestId('assistant-message').filter({ hasText: FINAL_PREFIX }).filter({ hasText: '42' }).last().waitFor({ timeout: 20_000 });
    expect(toolMessages(fake.chatRequests().at(-1)).join('\n')).toContain('42');
    await screenshot(page, 'e2e-mcp-tool-call');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('Inspect on an MCP call shows the tools/call request as sent, the answer and the server log lines of the call', async () => {
    await openPanel(page, 'settings');
    const section = page.getByTestId('mcp-section');
    await section.scrollIntoViewIfNeeded();
    await section.getByTestId('mcp-add-open').click();
    await section.getByTestId('mcp-add-name').fill('logs');
    await section.getByTestId('mcp-add-target').fill(`${process.execPath} ${fixture('log-server.mjs')}`);
    await section.getByTestId('mcp-add-submit').click();
    const row = section.locator('[data-testid="mcp-server"][data-server="logs"]');
    await row.getByTestId('mcp-toggle-logs').check();
    await row.getByTestId('mcp-state').filter({ hasText: 'ready with 1 tool' }).waitFor({ timeout: 30_000 });

    await send(page, 'call logs__work {"label": "from e2e", "ms": 100}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor({ timeout: 20_000 });
    await card.getByRole('button', { name: 'Approve once' }).click();
    const call = lastCall(page);
    await waitForStatus(call, 'done');
    await call.getByRole('button', { name: 'Inspect' }).click();
    const panel = call.getByTestId('inspect-panel');
    await panel.waitFor();
    const request = (await panel.getByTestId('inspect-mcp-request').textContent())!;
    expect(request).toContain('"method": "tools/call"');
    expect(request).toContain('"name": "work"');
    expect(request).toMatch(/"arguments": \{\s*"label": "from e2e",\s*"ms": 100\s*\}/);
    expect(request).toMatch(/"id": \d+/);
    await expect(panel.getByTestId('inspect-mcp-answer').textContent()).resolves.toMatch(/isError: false[\s\S]*worked from e2e/);
    const log = (await panel.getByTestId('inspect-mcp-log').textContent())!;
    expect(log).toContain('[info] work: log from e2e');
    expect(log).toContain('stderr from e2e');
    expect(log).toContain('progress  half from e2e (1/2)');
    await expect(panel.getByTestId('inspect-mcp-server').textContent()).resolves.toMatch(/logs \(stdio, pid \d+\) · request id \d+ · starting the server .* · round trip/);
    await expect(panel.getByTestId('inspect-durations').textContent()).resolves.toMatch(/running .* \(starting the server .*, MCP round trip .*\)/);
    await expect(panel.getByTestId('inspect-model-text').textContent()).resolves.toContain('worked from e2e');
    // The Copy button copies exactly the request's text.
    await expect(panel.getByRole('button', { name: 'Copy mcp request' }).isVisible()).resolves.toBe(true);
  });

  it('an image result is shown in its tool-call block', async () => {
    await send(page, 'call ev__get-tiny-image {}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor({ timeout: 20_000 });
    await card.getByRole('button', { name: 'Approve once' }).click();
    await waitForStatus(lastCall(page), 'done');
    const img = lastCall(page).getByRole('img', { name: 'Image 1 from ev__get-tiny-image (image/png)' });
    await img.waitFor({ timeout: 20_000 });
    await expect(img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).resolves.toBe(true);
    await screenshot(page, 'e2e-mcp-tool-image');
  });

  it('/ev:args-prompt from the / menu, its argument filled, runs the prompt as the user turn', async () => {
    await newChat(page);
    const box = page.getByTestId('composer');
    await box.fill('/ev:args');
    const option = page.getByTestId('slash-menu').getByRole('option').filter({ hasText: '/ev:args-prompt' });
    await option.waitFor({ timeout: 20_000 });
    await expect(option.textContent()).resolves.toContain('city=…');
    await screenshot(page, 'e2e-mcp-prompt-menu');
    await box.press('Tab');
    await expect(box.inputValue()).resolves.toBe('/ev:args-prompt city=');
    await expect(page.getByTestId('prompt-hint').textContent()).resolves.toMatch(/city \(required\): Name of the city.*Still needed: city\./);
    await box.pressSequentially('"New York"');
    await expect(page.getByTestId('prompt-hint').textContent()).resolves.not.toContain('Still needed');
    await box.press('Enter');
    const bubble = page.getByTestId('row-user').last();
    await bubble.filter({ hasText: "What's weather in New York?" }).waitFor({ timeout: 20_000 });
    await expect(bubble.getByTestId('prompt-source').textContent()).resolves.toContain('/ev:args-prompt city="New York"');
    await page.getByTestId('assistant-message').filter({ hasText: "You said: What's weather in New York?" }).waitFor({ timeout: 20_000 });

    // A missing required argument is refused with what to type; the text stays in the box.
    await box.fill('/ev:args-prompt state=NY');
    await box.press('Enter');
    const toast = page.getByTestId('error-toast');
    await toast.filter({ hasText: /\/ev:args-prompt needs city \(Name of the city\)/ }).waitFor({ timeout: 10_000 });
    await expect(box.inputValue()).resolves.toBe('/ev:args-prompt state=NY');
    // The error sits under the header, clear of the message box and its buttons.
    const [toastBox, composerBox] = await Promise.all([toast.boundingBox(), page.locator('.composer-anchor').boundingBox()]);
    expect(toastBox!.y + toastBox!.height).toBeLessThan(composerBox!.y);
    await toast.getByRole('button', { name: 'Dismiss' }).click();
    await box.fill('');
  });

  it('"Attach resource" lists the server\'s resources, searchable; the picked one is sent as a text attachment', async () => {
    await page.getByRole('button', { name: 'Attach resource' }).click();
    const picker = page.getByTestId('resource-picker');
    await picker.getByRole('searchbox', { name: 'Search resources' }).fill('architecture');
    const item = picker.getByRole('button', { name: /architecture\.md/ });
    await item.waitFor({ timeout: 20_000 });
    await expect(picker.getByRole('button', { name: /features\.md/ }).count()).resolves.toBe(0);
    await screenshot(page, 'e2e-mcp-resource-picker');
    await item.click();
    await picker.waitFor({ state: 'detached' });
    await page.getByTestId('attachment-chip').filter({ hasText: 'architecture.md' }).waitFor();
    await send(page, 'summarise the attached file');
    await page.getByTestId('row-user').last().getByTestId('attachment-chip').filter({ hasText: 'architecture.md' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: summarise the attached file' }).waitFor({ timeout: 20_000 });
    const user = JSON.stringify(fake.chatRequests().at(-1)!.body.messages.at(-1));
    expect(user).toContain('Attached file architecture.md');
    await screenshot(page, 'e2e-mcp-resource');
  });
});
