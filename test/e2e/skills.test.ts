// Issue #34 in the app (Chromium, browser mode, the real runtime): Settings → Skills lists every
// skill with origin, description, file count and problems; its switch, network grant and the
// `skillRoots` folders persist in the settings; the chat's Tools menu lists the skills beside the
// groups, each switch that chat's own; `allowed-tools` is shown as a proposal and, once accepted,
// narrows a chat's tools only while the skill is active there; "New tool" makes a valid SKILL.md folder.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../shared/settings.ts';
import { runCli } from '../support/run-cli.ts';
import { newChat, openPanel, send } from './support/chat-page.ts';
import { startE2EApp, type E2EApp } from './support/e2e-app.ts';
import { seriousViolations } from './support/axe.ts';
import { FINAL_PREFIX, offeredTools } from './support/fake-model.ts';

let app: E2EApp;
let page: Page;
let userHome: string;
let extraRoot: string;

function skill(root: string, folder: string, frontMatter: string, files: Record<string, string> = {}): void {
  const dir = join(root, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), `---\n${frontMatter}\n---\n\n# ${folder}\n\nDo the thing.\n`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

const settingsFile = (): Settings => JSON.parse(readFileSync(join(app.home, 'settings.json'), 'utf8')) as Settings;
/** Back from the Settings page to the chat (its tab toggles the page). */
async function closeSettings(): Promise<void> {
  const tab = page.getByTestId('tab-settings');
  if ((await tab.getAttribute('aria-pressed')) === 'true') await tab.click();
  await page.getByTestId('settings-panel').waitFor({ state: 'detached' });
}

const item = (id: string) => page.getByTestId('skills-section').locator(`[data-testid="skill-item"][data-skill="${id}"]`);

beforeAll(async () => {
  // The user's own folders are a fresh HOME: nothing of the machine's leaks in.
  userHome = mkdtempSync(join(tmpdir(), 'td-e2e-skills-home-'));
  extraRoot = mkdtempSync(join(tmpdir(), 'td-e2e-skills-extra-'));
  const agents = join(userHome, '.agents/skills');
  skill(agents, 'pdf-helper', 'name: pdf-helper\ndescription: Reads PDF forms for the user.\nlicense: MIT', { 'scripts/check.py': 'print("ok")\n', 'reference.md': '# Ref\n' });
  skill(agents, 'echo-only', 'name: echo-only\ndescription: Echoes text back with the echo tool.\nallowed-tools: script_echo Bash(git:*)');
  // A name that does not match its folder: loaded, with a diagnostic.
  skill(agents, 'misnamed', 'name: other-name\ndescription: Its folder says another name.');
  skill(extraRoot, 'from-extra', 'name: from-extra\ndescription: Found through skillRoots.');
  app = await startE2EApp({ env: { HOME: userHome } });
  ({ page } = app);
}, 180_000);

afterAll(async () => {
  await app?.close();
  rmSync(userHome, { recursive: true, force: true });
  rmSync(extraRoot, { recursive: true, force: true });
});

describe('Settings → Skills', () => {
  it('lists each skill with origin, description, file count and problems; switch and network persist', async () => {
    await openPanel(page, 'settings');
    await page.getByTestId('settings-nav').getByRole('button', { name: 'Skills', exact: true }).click();
    await item('pdf-helper').waitFor();
    await expect(item('pdf-helper').getByTestId('skill-meta').textContent()).resolves.toBe(' · agents · 3 files · MIT');
    await expect(item('pdf-helper').getByTestId('skill-description').textContent()).resolves.toBe('Reads PDF forms for the user.');
    await expect(item('other-name').getByTestId('skill-diagnostics').textContent()).resolves.toContain('other-name');

    // Off, as `tooldesk skills disable` would: in the settings, and `skills list` says so.
    await page.getByTestId('skill-toggle-pdf-helper').click();
    await expect.poll(() => settingsFile().skills?.['pdf-helper']?.enabled).toBe(false);
    const listed = JSON.parse((await runCli(app.home, ['skills', 'list', '--json'], '', { HOME: userHome })).stdout) as { skills: Array<{ name: string; enabled: boolean }> };
    expect(listed.skills.find((s) => s.name === 'pdf-helper')?.enabled).toBe(false);
    await page.getByTestId('skill-toggle-pdf-helper').click();
    await expect.poll(() => settingsFile().skills?.['pdf-helper']?.enabled).toBe(true);

    await item('pdf-helper').getByRole('button', { name: 'Details' }).click();
    await page.getByTestId('skill-network-pdf-helper').click();
    await expect.poll(() => settingsFile().skills?.['pdf-helper']?.network).toBe(true);
    await expect(item('pdf-helper').getByTestId('skill-files').textContent()).resolves.toBe('SKILL.mdreference.mdscripts/check.py');
    // Revoked as well as granted: the setting goes away.
    await page.getByTestId('skill-network-pdf-helper').click();
    await expect.poll(() => settingsFile().skills?.['pdf-helper']?.network).toBeUndefined();
    // The section with a skill open, its problems and switches: nothing serious for axe-core.
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('edits skillRoots: a relative folder is refused with the reason, an absolute one is read', async () => {
    const input = page.getByTestId('skill-roots-input');
    await input.fill('relative/skills');
    await page.getByTestId('skill-roots-save').click();
    await expect(page.getByTestId('skills-section').getByRole('alert').textContent()).resolves.toContain('"relative/skills" is not an absolute path');
    await input.fill(extraRoot);
    await page.getByTestId('skill-roots-save').click();
    await item('from-extra').waitFor();
    await expect(item('from-extra').getByTestId('skill-meta').textContent()).resolves.toContain('custom');
    expect(settingsFile().skillRoots).toEqual([extraRoot]);
  });

  it('Settings → Tool sets offers the skills found and names one a set names that is not loaded', async () => {
    const section = page.getByTestId('tool-sets-section');
    await section.scrollIntoViewIfNeeded();
    await section.getByRole('button', { name: '+ Add tool set' }).click();
    await section.getByLabel('Tool set 1 name').fill('forms');
    const skills = section.getByLabel('Tool set 1 skills');
    await skills.fill('pdf-helper');
    await expect(section.getByTestId('tool-set-missing-skills').count()).resolves.toBe(0);
    const offered = await section.locator('#tool-set-skills option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toEqual(expect.arrayContaining(['pdf-helper', 'echo-only', 'from-extra']));
    await skills.fill('pdf-helper, pdf-typo');
    await expect.poll(() => section.getByTestId('tool-set-missing-skills').textContent()).toContain('No skill pdf-typo is loaded');
    expect(await seriousViolations(page)).toEqual([]);
    // Only a warning: the set saves, and chats using it get pdf-helper.
    await section.getByRole('button', { name: 'Save tool sets' }).click();
    await expect.poll(() => settingsFile().toolSets).toEqual([{ name: 'forms', skills: ['pdf-helper', 'pdf-typo'] }]);
    await section.getByRole('button', { name: 'Remove tool set 1' }).click();
    await section.getByRole('button', { name: 'Save tool sets' }).click();
    await expect.poll(() => settingsFile().toolSets ?? []).toEqual([]);
  });
});

describe("the chat's Tools menu", () => {
  it('lists the skills beside the groups; unticking one switches it off for this chat only', async () => {
    await closeSettings();
    await newChat(page);
    await send(page, 'first');
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: first' }).waitFor();
    await page.getByTestId('tools-button').click();
    const skills = page.getByTestId('tool-selection-skills');
    await skills.getByTestId('tool-selection-skill').first().waitFor();
    const ids = await skills.getByTestId('tool-selection-skill').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-skill')));
    expect(ids.sort()).toEqual(['echo-only', 'from-extra', 'other-name', 'pdf-helper']);
    await skills.getByLabel('Skill from-extra').uncheck();
    // Saved with this chat (its settings record), not in the settings every chat reads.
    const sessionsDir = join(app.home, 'sessions');
    const chatRecords = () => readdirSync(sessionsDir).filter((f) => f.endsWith('.jsonl')).filter((f) => readFileSync(join(sessionsDir, f), 'utf8').includes('"skillsOff":["from-extra"]'));
    await expect.poll(() => chatRecords().length).toBe(1);
    expect(settingsFile().skills?.['from-extra']?.enabled).toBeUndefined();
    await expect.poll(() => skills.textContent()).toContain('3/4 on for this chat');
    // The catalog this chat's model gets no longer names it.
    await page.keyboard.press('Escape');
    await send(page, 'hello');
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: hello' }).waitFor();
    const system = (app.fake.chatRequests().at(-1)!.body.messages as Array<{ content: string }>)[0]!.content;
    expect(system).toContain('- pdf-helper: Reads PDF forms');
    expect(system).not.toContain('from-extra');
    // Another chat keeps it, and its menu shows it on.
    await newChat(page);
    await send(page, 'other chat');
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: other chat' }).waitFor();
    const other = (app.fake.chatRequests().at(-1)!.body.messages as Array<{ content: string }>)[0]!.content;
    expect(other).toContain('- from-extra: Found through skillRoots.');
    await page.getByTestId('tools-button').click();
    await expect.poll(() => skills.getByLabel('Skill from-extra').isChecked()).toBe(true);
    await page.keyboard.press('Escape');
  });
});

describe('allowed-tools', () => {
  it('is a proposal until accepted; accepted, it narrows the chat only once the skill is active', async () => {
    await openPanel(page, 'settings');
    await page.getByTestId('settings-nav').getByRole('button', { name: 'Skills', exact: true }).click();
    await item('echo-only').getByRole('button', { name: 'Details' }).click();
    await expect(item('echo-only').getByTestId('skill-allowed-tools').textContent()).resolves.toContain('a proposal, not granted');
    expect(settingsFile().toolSets ?? []).toEqual([]);
    await page.getByTestId('skill-accept-tools-echo-only').click();
    await expect(item('echo-only').getByRole('status').textContent()).resolves.toBe('Not tools of this app, left out: Bash(git:*)');
    expect(settingsFile().toolSets).toEqual([{ name: 'skill:echo-only', groups: ['skills'], tools: ['script_echo'] }]);
    expect(settingsFile().skills?.['echo-only']?.toolSet).toBe('skill:echo-only');

    await closeSettings();
    await newChat(page);
    await send(page, 'before');
    await page.getByTestId('assistant-message').filter({ hasText: 'You said: before' }).waitFor();
    const before = offeredTools(app.fake.chatRequests().at(-1));
    expect(before).toContain('script_note');
    await send(page, 'call activate_skill {"name":"echo-only"}');
    await page.getByTestId('assistant-message').filter({ hasText: `${FINAL_PREFIX} # Skill echo-only` }).waitFor();
    const after = offeredTools(app.fake.chatRequests().at(-1));
    expect(after).toContain('script_echo');
    expect(after).toContain('activate_skill');
    expect(after).not.toContain('script_note');
    // Nothing was switched on that was off, and no policy changed.
    expect(after.filter((t) => !before.includes(t))).toEqual([]);
    expect(settingsFile().permissionOverrides).toEqual({});
  });
});

describe('New tool → Agent Skill', () => {
  it('makes a SKILL.md folder in the skills folder that loads without a problem', async () => {
    await openPanel(page, 'tools');
    await page.getByTestId('new-tool').click();
    const form = page.getByTestId('new-tool-form');
    await form.getByLabel('Format').selectOption('skill');
    await form.getByLabel('Tool name').fill('Bad_Name');
    await expect(form.getByTestId('new-tool-name-rule').textContent()).resolves.toContain('"Bad_Name" is not a valid skill name');
    await form.getByLabel('Tool name').fill('meeting-notes');
    await form.getByTestId('create-tool').click();
    await expect(page.getByTestId('skill-created').textContent()).resolves.toContain(join(app.home, 'skills/meeting-notes'));
    const md = readFileSync(join(app.home, 'skills/meeting-notes/SKILL.md'), 'utf8');
    expect(md).toMatch(/^---\nname: meeting-notes\ndescription: /);
    const check = await runCli(app.home, ['skills', 'check', 'meeting-notes'], '', { HOME: userHome });
    expect(check.code).toBe(0);
    const listed = JSON.parse((await runCli(app.home, ['skills', 'list', '--json'], '', { HOME: userHome })).stdout) as { skills: Array<{ name: string; origin: string; enabled: boolean }>; diagnostics: unknown[] };
    expect(listed.skills.find((s) => s.name === 'meeting-notes')).toMatchObject({ origin: 'tooldesk', enabled: true });
    expect(listed.diagnostics.filter((d) => (d as { file: string }).file.includes('meeting-notes'))).toEqual([]);
  });
});

