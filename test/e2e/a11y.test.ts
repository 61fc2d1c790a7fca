// Issue 25 §9: axe-core on the main screens — the chat with a waiting approval card, Settings,
// Tools, Variables — in light and dark: no serious or critical violation.
import { describe, expect, it } from 'vitest';
import { ECHO_ASKS, startFileApp } from './support/e2e-app.ts';
import { seriousViolations } from './support/axe.ts';
import { newChat, openPanel, send } from './support/chat-page.ts';

const { page } = await startFileApp({ settings: ECHO_ASKS });

describe('axe-core: no serious or critical violations', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`${scheme}: chat with a waiting card, Settings, Tools, Variables`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      await newChat(page);
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
  }
});
