// Issue 37 in Chromium against the real runtime: each Settings section has a "?" that opens its
// page of docs/ with the system's opener, and a tool's problem has a "How to fix" that opens its
// format's page. The opener on PATH writes down what it was asked to open.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/run-cli.ts';
import { startFileApp } from './support/e2e-app.ts';
import { openPanel } from './support/chat-page.ts';
import { seriousViolations } from './support/axe.ts';

const opener = mkdtempSync(join(tmpdir(), 'td-opener-'));
const openedLog = join(opener, 'opened.txt');
writeFileSync(join(opener, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${openedLog}'\n`, { mode: 0o755 });
afterAll(() => rmSync(opener, { recursive: true, force: true }));

const app = await startFileApp({ env: { PATH: `${opener}:${process.env.PATH}` } });
const { page } = app;

/** Clicks `link` and waits for the opener to be asked; the path it got. */
async function follow(link: ReturnType<typeof page.getByTestId>): Promise<string> {
  rmSync(openedLog, { force: true });
  await link.click();
  await expect.poll(() => existsSync(openedLog), { timeout: 10_000 }).toBe(true);
  return readFileSync(openedLog, 'utf8');
}

describe('links to the docs', () => {
  it('every Settings section has a "?" whose page exists; it opens that page', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    await openPanel(page, 'settings');
    const sections = await page.locator('.settings-anchor').evaluateAll((els) => els.map((el) => el.getAttribute('data-section')));
    const links = await page.locator('.settings-anchor').evaluateAll((els) =>
      els.map((el) => ({ section: el.getAttribute('data-section'), docs: el.querySelector(':scope > .help-link [data-testid="help-link"]')?.getAttribute('data-docs') ?? null })),
    );
    expect(links.map((l) => l.section)).toEqual(sections);
    expect(links.filter((l) => !l.docs || !existsSync(join(repoRoot, 'docs', l.docs)))).toEqual([]);

    await page.getByTestId('settings-nav').getByRole('button', { name: 'MCP servers', exact: true }).click();
    const mcp = page.locator('.settings-anchor[data-section="mcp"] > .help-link');
    expect(await mcp.getByTestId('help-link').getAttribute('aria-label')).toBe('Help: MCP servers (docs/mcp/servers.md)');
    expect(await follow(mcp.getByTestId('help-link'))).toBe(join(repoRoot, 'docs/mcp/servers.md'));
    await expect(mcp.getByRole('status').textContent()).resolves.toBe('Opened docs/mcp/servers.md');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("a tool's problem has a How to fix that opens its format's page", async () => {
    // A script folder whose tool.json is not JSON.
    mkdirSync(join(app.home, 'tools', 'broken'));
    writeFileSync(join(app.home, 'tools', 'broken', 'tool.json'), '{ not json');
    writeFileSync(join(app.home, 'tools', 'broken', 'script.js'), 'console.log(1)\n');
    await openPanel(page, 'tools');
    const problem = page.getByTestId('diagnostics').locator('li').filter({ hasText: 'broken' }).first();
    await problem.waitFor({ timeout: 30_000 });
    const fix = problem.getByTestId('help-link');
    expect(await fix.textContent()).toBe('How to fix');
    expect(await follow(fix)).toBe(join(repoRoot, 'docs/tools/script-folders.md'));
    expect(await seriousViolations(page)).toEqual([]);
  });
});
