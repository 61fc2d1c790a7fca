import { describe, expect, it } from 'vitest';
import { parseSkill } from '../../../../electron/runtime/sources/skills/parse-skill.ts';
import { scanSkillRoots } from '../../../../electron/runtime/sources/skills/scan-skills.ts';
import { markCommandLines } from '../../../../electron/runtime/sources/skills/mark-commands.ts';
import { skillHomes, writeSkill } from '../../../support/skill-fixtures.ts';
import { join } from 'node:path';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';

describe('parseSkill', () => {
  it('reads the front matter fields and the body with its line', () => {
    const text = '---\nname: pdf\ndescription: Work with PDFs.\nlicense: MIT\nallowed-tools: Bash(python:*) Read\nmetadata:\n  author: me\n---\n\n# Title\nBody\n';
    const { skill, diagnostics } = parseSkill(text, '/x/pdf/SKILL.md', 'pdf');
    expect(diagnostics).toEqual([]);
    expect(skill?.frontMatter).toEqual({ name: 'pdf', description: 'Work with PDFs.', license: 'MIT', allowedTools: ['Bash(python:*)', 'Read'], metadata: { author: 'me' } });
    expect(skill?.body.startsWith('# Title')).toBe(true);
    expect(skill?.bodyLine).toBe(10);
  });

  it('warns on a name that does not match the folder, with its line, and still loads', () => {
    const { skill, diagnostics } = parseSkill('---\ndescription: d\nname: other\n---\nx', '/s/mine/SKILL.md', 'mine');
    expect(skill?.frontMatter.name).toBe('other');
    expect(diagnostics).toContainEqual(expect.objectContaining({ severity: 'warning', file: '/s/mine/SKILL.md', line: 3, message: expect.stringContaining('does not match its folder "mine"') }));
  });

  it('reads invalid YAML leniently (an unquoted colon) with a warning', () => {
    const { skill, diagnostics } = parseSkill('---\nname: a\ndescription: Use it: when asked: always\n---\nb', '/s/a/SKILL.md', 'a');
    expect(skill?.frontMatter.description).toBe('Use it: when asked: always');
    expect(diagnostics.some((d) => d.message.includes('not valid YAML'))).toBe(true);
  });

  it('refuses a file without front matter, naming the file', () => {
    const { skill, diagnostics } = parseSkill('# just markdown', '/s/a/SKILL.md', 'a');
    expect(skill).toBeNull();
    expect(diagnostics[0]).toMatchObject({ severity: 'error', file: '/s/a/SKILL.md', line: 1 });
  });

  it('marks !`command` lines instead of running them', () => {
    const marked = markCommandLines('Setup: !`touch MARKER`\nplain `code`');
    expect(marked.count).toBe(1);
    expect(marked.text).toContain('[command proposed by the skill, NOT run] `touch MARKER`');
    expect(marked.text).toContain('plain `code`');
  });
});

describe('scanSkillRoots', () => {
  it('keeps same-named skills of two origins, both qualified', () => {
    const { userHome } = skillHomes();
    const a = join(userHome, '.agents/skills');
    const c = join(userHome, '.claude/skills');
    writeSkill(a, 'pdf', { name: 'pdf', description: 'one' });
    writeSkill(c, 'pdf', { name: 'pdf', description: 'two' });
    writeSkill(a, 'solo', { name: 'solo', description: 'three' }, 'x', { 'scripts/a.py': 'print(1)' });
    const { skills } = scanSkillRoots([
      { kind: 'user', label: 'agents', root: a },
      { kind: 'user', label: 'claude', root: c },
    ]);
    expect(skills.map((s) => s.id).sort()).toEqual(['agents:pdf', 'claude:pdf', 'solo']);
    expect(skills.find((s) => s.id === 'solo')?.files).toEqual(['SKILL.md', 'scripts/a.py']);
  });

  it('lists a symlink without following it, and skips folders without SKILL.md', () => {
    const { userHome } = skillHomes();
    const root = join(userHome, 'skills');
    const dir = writeSkill(root, 's', { name: 's', description: 'd' });
    mkdirSync(join(userHome, 'outside'));
    writeFileSync(join(userHome, 'outside/secret.txt'), 'x');
    symlinkSync(join(userHome, 'outside'), join(dir, 'link'));
    mkdirSync(join(root, 'not-a-skill'));
    const { skills } = scanSkillRoots([{ kind: 'custom', label: 'custom', root }]);
    expect(skills.map((s) => s.id)).toEqual(['s']);
    expect(skills[0]!.files).toEqual(['SKILL.md', 'link']);
  });

  it('reads nothing of an untrusted project folder and says so', () => {
    const { work } = skillHomes();
    const root = join(work, '.agents/skills');
    writeSkill(root, 'p', { name: 'p', description: 'd' });
    const result = scanSkillRoots([{ kind: 'project', label: 'project', root, untrusted: true }]);
    expect(result.skills).toEqual([]);
    expect(result.diagnostics[0]).toMatchObject({ file: root, code: 'untrusted-project-folder' });
  });
});
