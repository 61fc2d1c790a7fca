// axe-core in the page: the serious and critical violations of what is shown now, in both colour
// schemes. Every e2e check of a screen state runs light and dark (issue 36: "0 serious or critical
// violations on every screen state the e2e suite opens, light and dark").
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Serious and critical violations on the page as it is now, one line each (scheme, rule,
 * element, why), checked under `prefers-color-scheme: light` and `dark`. The page is left in
 * the scheme it was in.
 */
export async function seriousViolations(p: Page): Promise<string[]> {
  const wasDark = await p.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
  const found: string[] = [];
  try {
    for (const scheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme: scheme });
      found.push(...(await violationsNow(p)).map((line) => `${scheme}: ${line}`));
    }
  } finally {
    await p.emulateMedia({ colorScheme: wasDark ? 'dark' : 'light' });
  }
  return found;
}

async function violationsNow(p: Page): Promise<string[]> {
  // A switched scheme or a just-focused row starts CSS transitions (colours, the message actions'
  // fade-in): measured halfway, their colours are neither theme's. Wait for them to end.
  await p.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  // Evaluated through DevTools, so the page's CSP (script-src 'self') does not stop it.
  if (!(await p.evaluate(() => 'axe' in window))) await p.evaluate(AXE_SOURCE);
  const violations = await p.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) ${n.target.join(' ')}: ${(n.failureSummary ?? v.help).replace(/\s+/g, ' ').slice(0, 240)}`));
}
