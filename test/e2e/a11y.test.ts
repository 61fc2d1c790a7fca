// Issue 25 §9 and issue 36: axe-core on the main screens — the chat with messages and a waiting
// approval card, a failed turn's notice, Settings, Tools, Variables — in light and dark (seriousViolations checks both):
// no serious or critical violation.
import { describe, expect, it } from 'vitest';
import { ECHO_ASKS, startFileApp } from './support/e2e-app.ts';
import { seriousViolations } from './support/axe.ts';
import { newChat, openPanel, send } from './support/chat-page.ts';

const { page } = await startFileApp({ settings: ECHO_ASKS });

describe('axe-core: no serious or critical violations, light and dark', () => {
  it('chat with messages and a waiting card, Settings, Tools, Variables', async () => {
    await newChat(page);
    await send(page, 'hello');
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: hello' }).waitFor({ timeout: 20_000 });
    await send(page, 'call script_echo {"text": "check me"}');
    await page.getByTestId('execution-approval').waitFor({ timeout: 20_000 });
    const found: Record<string, string[]> = { chat: await seriousViolations(page) };
    for (const name of ['settings', 'tools', 'variables'] as const) {
      await openPanel(page, name);
      found[name] = await seriousViolations(page);
    }
    await page.keyboard.press('Escape');
    expect(found).toEqual({ chat: [], settings: [], tools: [], variables: [] });
  });

  it('the red error of a turn that failed, with its Retry', async () => {
    await newChat(page);
    await send(page, 'fail 400');
    const notice = page.getByTestId('message-error');
    await notice.waitFor({ timeout: 20_000 });
    await expect(notice.textContent()).resolves.toContain('the fake model refused this turn');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
