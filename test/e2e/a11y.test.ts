// Issue 25 §9: axe-core on the main screens — the chat with a waiting approval card, Settings,
// Tools, Variables — in light and dark: no serious or critical violation.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ECHO_ASKS, startFileApp } from './support/e2e-app.ts';
import { newChat, openPanel, send } from './support/chat-page.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const { page } = await startFileApp({ settings: ECHO_ASKS });

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Serious and critical violations on the page as it is now, one line each (rule, element, why). */
async function seriousViolations(p: Page): Promise<string[]> {
  // Evaluated through DevTools, so the page's CSP (script-src 'self') does not stop it.
  await p.evaluate(AXE_SOURCE);
  const violations = await p.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) ${n.target.join(' ')}: ${(n.failureSummary ?? v.help).replace(/\s+/g, ' ').slice(0, 240)}`));
}

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
