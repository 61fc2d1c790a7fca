// Project trust in Chromium against the real runtime: a project tool folder under the working
// folder is shown as "untrusted project folder — review" and loads nothing; "Trust this folder"
// remembers the approval and loads its tools; a restart keeps it.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { E2E_TOOLS } from './support/e2e-home.ts';
import { openPanel } from './support/chat-page.ts';
import { screenshot } from './support/screenshots.ts';
import { seriousViolations } from './support/axe.ts';

let app: E2EApp;
let page: Page;
const project = mkdtempSync(join(tmpdir(), 'td-e2e-proj-'));
const folder = join(project, '.config', 'agenvoy', 'tools', 'script');

beforeAll(async () => {
  mkdirSync(folder, { recursive: true });
  // The e2e echo tool under another name: script_project_echo once loaded.
  cpSync(join(E2E_TOOLS, 'echo'), join(folder, 'project_echo'), { recursive: true });
  const manifest = join(folder, 'project_echo', 'tool.json');
  writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), name: 'project_echo' }));
  app = await startE2EApp({ settings: { workingDir: project } });
  ({ page } = app);
});

afterAll(async () => {
  await app?.close();
  rmSync(project, { recursive: true, force: true });
});

describe('project trust in the Tools panel', () => {
  it('shows the unapproved project folder, loads nothing from it, and loads its tools once trusted', async () => {
    await openPanel(page, 'tools');
    const row = page.locator(`[data-testid="untrusted-folder"][data-path="${folder}"]`);
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('untrusted project folder — review');
    await expect(page.locator('[data-testid="tool-item"][data-tool="script_project_echo"]').count()).resolves.toBe(0);
    // The tools of the user's own folder are there, so the list did load.
    await page.locator('[data-testid="tool-item"][data-tool="script_echo"]').waitFor();
    await screenshot(page, 'e2e-untrusted-project-folder');
    expect(await seriousViolations(page)).toEqual([]);
    await row.getByTestId('trust-folder').click();
    await page.locator('[data-testid="tool-item"][data-tool="script_project_echo"]').waitFor();
    await expect(page.getByTestId('untrusted-folder').count()).resolves.toBe(0);
    const settings = JSON.parse(readFileSync(join(app.home, 'settings.json'), 'utf8')) as { trustedProjectFolders: string[] };
    expect(settings.trustedProjectFolders).toEqual([folder]);
  });

  it('remembers the approval across a restart', async () => {
    await app.restart();
    await openPanel(page, 'tools');
    await page.locator('[data-testid="tool-item"][data-tool="script_project_echo"]').waitFor();
    await expect(page.getByTestId('untrusted-folder').count()).resolves.toBe(0);
  });

  it('revokes the approval from Settings: the folder is untrusted again and its tools unload', async () => {
    await openPanel(page, 'settings');
    const row = page.locator(`[data-testid="trusted-folder"][data-path="${folder}"]`);
    await row.waitFor();
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    await openPanel(page, 'tools');
    await page.locator(`[data-testid="untrusted-folder"][data-path="${folder}"]`).waitFor();
    await expect(page.locator('[data-testid="tool-item"][data-tool="script_project_echo"]').count()).resolves.toBe(0);
  });
});
