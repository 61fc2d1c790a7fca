// Issue 14 in Chromium against the real runtime (browser mode) and the fake OpenAI server: edit
// the arguments before approving, run again, inspect, choose the chat's tools, an unknown slash
// command, and a cancelled call.
import { describe, expect, it } from 'vitest';
import { startFileApp } from './support/e2e-app.ts';
import { FINAL_PREFIX, offeredTools, toolMessages } from './support/fake-model.ts';
import { lastCall, newChat, send, waitForStatus } from './support/chat-page.ts';

const { fake, page } = await startFileApp();

async function finalAnswer(contains: string): Promise<void> {
  await page.getByTestId('assistant-message').filter({ hasText: FINAL_PREFIX }).filter({ hasText: contains }).last().waitFor({ timeout: 20_000 });
}

describe('tool calls the way users ask for them', () => {
  it('Edit arguments, then approve: the tool runs with the edited arguments and the model is told', async () => {
    await send(page, 'call script_echo {"text": "from the model"}');
    const card = page.getByTestId('execution-approval');
    await card.waitFor();
    await card.getByRole('button', { name: 'Edit arguments' }).click();
    const field = card.getByLabel(/^text/);
    await expect(field.inputValue()).resolves.toBe('from the model');
    await field.fill('');
    // Live validation: the runtime's schema check says what is wrong; approving waits.
    await card.getByTestId('args-validation').filter({ hasText: 'Required' }).waitFor();
    expect(await card.getByRole('button', { name: 'Approve once' }).isDisabled()).toBe(true);
    await field.fill('from the user');
    await card.getByTestId('args-validation').filter({ hasText: 'Valid.' }).waitFor();
    await card.getByRole('button', { name: 'Approve once' }).click();
    await waitForStatus(lastCall(page), 'done');
    await finalAnswer('echo: from the user');
    const told = toolMessages(fake.chatRequests().at(-1)).join('\n');
    expect(told).toContain('the user changed the arguments before approving; the call ran with {"text":"from the user"}');
    expect(told).toContain('echo: from the user');
  });

  it('Inspect shows the command line, working folder, exit code, durations and the text the model got', async () => {
    const call = lastCall(page);
    await call.getByRole('button', { name: 'Inspect' }).click();
    const panel = call.getByTestId('inspect-panel');
    await panel.waitFor();
    await expect(panel.getByTestId('inspect-command').textContent()).resolves.toMatch(/node\S* .*echo\/script\.js/);
    await expect(panel.getByTestId('inspect-exit').textContent()).resolves.toMatch(/Exit code\s*Copy\s*0 ·/);
    await expect(panel.getByTestId('inspect-args').textContent()).resolves.toContain('"text": "from the user"');
    await expect(panel.getByTestId('inspect-original-args').textContent()).resolves.toContain('"text": "from the model"');
    await expect(panel.getByTestId('inspect-stdout').textContent()).resolves.toContain('echo: from the user');
    await expect(panel.getByTestId('inspect-durations').textContent()).resolves.toMatch(/queued .* · waiting for approval .* · running .* · formatting/);
    await expect(panel.getByTestId('inspect-model-text').textContent()).resolves.toContain('echo: from the user');
    await expect(panel.getByTestId('inspect-variables').textContent()).resolves.toMatch(/wrote script_echo_\S+_result/);
    await expect(panel.getByTestId('inspect-cwd').textContent()).resolves.toMatch(/Working folder\s*Copy\s*\//);
  });

  it('Run again: a warning for a tool not marked read-only, the new result under the first, seen by the model next turn', async () => {
    const call = page.getByTestId('tool-call').first();
    await call.getByRole('button', { name: 'Run again' }).click();
    await expect(call.getByTestId('rerun-warning').textContent()).resolves.toContain('its first run already happened');
    const requests = fake.chatRequests().length;
    await call.getByRole('button', { name: 'Run with the same arguments' }).click();
    const rerun = call.getByTestId('tool-reruns').getByTestId('tool-call');
    // Approval as usual (script tools ask before every run), with the arguments it ran with.
    const card = rerun.getByTestId('execution-approval');
    await card.waitFor();
    await expect(card.getByTestId('arg-value').textContent()).resolves.toBe('from the user');
    await card.getByRole('button', { name: 'Approve once' }).click();
    await waitForStatus(rerun, 'done');
    await rerun.getByTestId('tool-result').click();
    await expect(rerun.getByTestId('tool-result').textContent()).resolves.toContain('echo: from the user');
    expect(fake.chatRequests().length).toBe(requests);
    await send(page, 'what did it say?');
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: what did it say?' }).waitFor();
    expect(toolMessages(fake.chatRequests().at(-1))).toEqual(['Note: the user changed the arguments before approving; the call ran with {"text":"from the user"}.\n\necho: from the user', 'echo: from the user']);
  });

  it('the per-chat tool selection hides a tool from the request the model receives', async () => {
    await newChat(page);
    await page.getByTestId('tools-button').click();
    const panel = page.getByRole('dialog', { name: 'Tools for this chat' });
    await panel.waitFor();
    await panel.getByLabel('Search tools').fill('note');
    await panel.getByRole('checkbox', { name: 'Tool script_note' }).uncheck();
    await page.getByTestId('tools-button').filter({ hasNotText: 'Tools · 0' }).waitFor();
    await panel.getByRole('button', { name: 'Close' }).click();
    await send(page, 'hello tools');
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: hello tools' }).waitFor();
    const offered = offeredTools(fake.chatRequests().at(-1));
    expect(offered).toContain('script_echo');
    expect(offered).not.toContain('script_note');
    // The model calling it anyway is refused, with how to allow it.
    await send(page, 'call script_note {"text": "x"}');
    await waitForStatus(lastCall(page), 'error');
    await finalAnswer('not selected for this chat');
  });

  it('typing / suggests tools; an unknown /name is answered without asking the model', async () => {
    await newChat(page);
    const box = page.getByTestId('composer');
    await box.fill('/script_ec');
    const menu = page.getByTestId('slash-menu');
    await menu.getByRole('option', { name: /script_echo/ }).waitFor();
    await box.press('Tab');
    await expect(box.inputValue()).resolves.toBe('/script_echo ');
    const requests = fake.chatRequests().length;
    await send(page, '/script_ech {"text": "hi"}');
    await page.locator('.notice.error').filter({ hasText: 'No tool named "script_ech" — did you mean /script_echo' }).waitFor();
    expect(fake.chatRequests().length).toBe(requests);
  });

  it('Cancel: the status says cancelled (not error) and the streamed lines stay', async () => {
    await newChat(page);
    await send(page, 'call script_slow {"seconds": 30}');
    const call = lastCall(page);
    await waitForStatus(call, 'running');
    await call.getByTestId('tool-partial').filter({ hasText: 'still waiting' }).waitFor({ timeout: 20_000 });
    await call.getByRole('button', { name: 'Cancel' }).click();
    await waitForStatus(call, 'cancelled');
    await expect(call.getByTestId('tool-status').textContent()).resolves.toMatch(/^cancelled · /);
    await expect(call.getByTestId('tool-partial').textContent()).resolves.toContain('still waiting');
  });
});
