// `tooldesk skills list|show|enable|disable` and `tools check` on real skill folders (our own
// `pdf` and Anthropic's `skill-creator` in a fake ~/.agents/skills), and hot reload of the skills group.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../electron/runtime/create-runtime.ts';
import { runCli } from '../support/run-cli.ts';
import { copyFixtureSkill, skillHomes, writeSkill } from '../support/skill-fixtures.ts';

function homesWithFixtureSkills() {
  const homes = skillHomes();
  const agents = join(homes.userHome, '.agents/skills');
  copyFixtureSkill('pdf', agents);
  copyFixtureSkill('skill-creator', agents);
  return { ...homes, agents, env: { HOME: homes.userHome } };
}

describe('tooldesk skills', () => {
  it('lists the real pdf and skill-creator skills from ~/.agents/skills with their descriptions', async () => {
    const { home, env } = homesWithFixtureSkills();
    const listed = await runCli(home, ['skills', 'list', '--json'], '', env);
    expect(listed.code).toBe(0);
    const { skills } = JSON.parse(listed.stdout) as { skills: Array<{ name: string; origin: string; enabled: boolean; description: string; files: number }> };
    const pdf = skills.find((s) => s.name === 'pdf')!;
    expect(pdf).toMatchObject({ origin: 'agents', enabled: true });
    expect(pdf.description).toMatch(/^Work with PDF files — read their text, find and fill their form fields/);
    expect(pdf.files).toBe(5);
    expect(skills.find((s) => s.name === 'skill-creator')?.description).toMatch(/Create new skills/);
    const text = await runCli(home, ['skills', 'list'], '', env);
    expect(text.stdout).toMatch(/pdf {2}\[agents\] {2}\d+ file\(s\)/);
  });

  it('shows front matter and body; enable/disable persist by id; same names are qualified', async () => {
    const { home, userHome, env } = homesWithFixtureSkills();
    copyFixtureSkill('pdf', join(userHome, '.claude/skills'));
    const ambiguous = await runCli(home, ['skills', 'show', 'pdf'], '', env);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('agents:pdf, claude:pdf');
    const shown = await runCli(home, ['skills', 'show', 'claude:pdf'], '', env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('name: pdf');
    expect(shown.stdout).toContain('# PDF Processing Guide');
    const off = await runCli(home, ['skills', 'disable', 'claude:pdf'], '', env);
    expect(off.stdout).toBe('skill claude:pdf disabled\n');
    const listed = JSON.parse((await runCli(home, ['skills', 'list', '--json'], '', env)).stdout) as { skills: Array<{ name: string; enabled: boolean }> };
    expect(listed.skills.find((s) => s.name === 'claude:pdf')?.enabled).toBe(false);
    expect(listed.skills.find((s) => s.name === 'agents:pdf')?.enabled).toBe(true);
  });

  it('tools check reports a skill whose name does not match its folder, with file:line', async () => {
    const { home, userHome } = skillHomes();
    const dir = writeSkill(join(userHome, '.agents/skills'), 'folder-name', { name: 'other-name', description: 'd' });
    const checked = await runCli(home, ['tools', 'check'], '', { HOME: userHome });
    expect(checked.stdout).toContain(`${join(dir, 'SKILL.md')}:2: warning: name "other-name" does not match its folder "folder-name"`);
  });
});

describe('skills hot reload', () => {
  it('a skill added to a watched folder joins the skills group', async () => {
    const { home, userHome, work } = skillHomes();
    const root = join(userHome, 'more-skills');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ skillRoots: [root], workingDir: work }));
    const runtime = await createRuntime({ home, tools: { watch: true, mcp: false, cwd: work } });
    try {
      const tools = await runtime.tools();
      expect(tools.source.groups().some((g) => g.name === 'skills')).toBe(false);
      const changed = new Promise<void>((resolve) => tools.source.onChanged(() => tools.source.groups().some((g) => g.name === 'skills') && resolve()));
      writeSkill(root, 'late', { name: 'late', description: 'Arrives later.' });
      await changed;
      const group = tools.source.groups().find((g) => g.name === 'skills')!;
      expect(group.tools.map((t) => t.definition.function.name)).toEqual(['activate_skill', 'read_skill_file', 'run_skill_script', 'run_skill_python']);
    } finally {
      await runtime.close();
    }
  });
});
