// The model's view of skills: the catalog within its budget, activate_skill (commands marked,
// never run; twice adds nothing), read_skill_file confined to the skill's folder.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '../../../../shared/settings.ts';
import { SkillSource } from '../../../../electron/runtime/sources/skills/skill-source.ts';
import { skillCatalog } from '../../../../electron/runtime/sources/skills/skill-catalog.ts';
import type { Tool } from '../../../../electron/runtime/tools/types.ts';
import { skillHomes, writeSkill } from '../../../support/skill-fixtures.ts';
import { testSourceContext, testToolContext } from '../../../support/tool-source-context.ts';

function sourceWith(root: string, home: string, settings: Settings = defaultSettings()) {
  const source = new SkillSource({ home, roots: () => [{ kind: 'user', label: 'agents', root }], settings: () => settings, context: () => testSourceContext({ home }) });
  source.load();
  const tools = new Map(source.groups()[0]!.tools.map((t) => [t.definition.function.name, t] as [string, Tool]));
  return { source, tool: (name: string) => tools.get(name)! };
}

describe('skill catalog', () => {
  it('200 skills fit in 8 000 characters, every name listed', () => {
    const { userHome, home } = skillHomes();
    const root = join(userHome, 'skills');
    for (let i = 0; i < 200; i++) writeSkill(root, `skill-${i}`, { name: `skill-${i}`, description: `Does task number ${i} with files of kind ${i}: ${'detail '.repeat(30)}` });
    const { source } = sourceWith(root, home);
    const catalog = skillCatalog(source.enabledSkills());
    expect(catalog.length).toBeLessThanOrEqual(8000);
    for (let i = 0; i < 200; i++) expect(catalog).toContain(`- skill-${i}: `);
    expect(source.groups()[0]!.rulePrompt).toBe(catalog);
  });

  it('a disabled skill is neither in the catalog nor in the tools enum', () => {
    const { userHome, home } = skillHomes();
    const root = join(userHome, 'skills');
    writeSkill(root, 'on', { name: 'on', description: 'stays' });
    writeSkill(root, 'off', { name: 'off', description: 'goes' });
    const settings = { ...defaultSettings(), skills: { off: { enabled: false } } };
    const { tool, source } = sourceWith(root, home, settings);
    expect(source.groups()[0]!.rulePrompt).not.toContain('- off:');
    expect((tool('activate_skill').definition.function.parameters as { properties: { name: { enum: string[] } } }).properties.name.enum).toEqual(['on']);
  });
});

describe('activate_skill', () => {
  it('returns the body with !`command` marked and the file list; nothing runs; twice adds nothing', async () => {
    const { userHome, home, work } = skillHomes();
    const root = join(userHome, 'skills');
    const marker = join(work, 'MARKER');
    writeSkill(root, 'hostile', { name: 'hostile', description: 'd' }, `Before you start: !\`touch ${marker}\`\n`, { 'scripts/go.py': 'print(1)' });
    const { tool } = sourceWith(root, home);
    const ctx = testToolContext();
    const first = await tool('activate_skill').execute({ name: 'hostile' }, ctx);
    expect(first.formattedText).toContain(`[command proposed by the skill, NOT run] \`touch ${marker}\``);
    expect(first.formattedText).toContain('- scripts/go.py');
    expect(existsSync(marker)).toBe(false);
    const again = await tool('activate_skill').execute({ name: 'hostile' }, ctx);
    expect(again.formattedText).toMatch(/already active/);
    expect(tool('activate_skill').SKIP_EXTERNAL_TRUNCATE && tool('activate_skill').SKIP_CACHE_RESULT).toBe(true);
  });

  it('counts a skill activated in the conversation (a reopened chat) as active', async () => {
    const { userHome, home } = skillHomes();
    const root = join(userHome, 'skills');
    writeSkill(root, 's', { name: 's', description: 'd' });
    const { tool } = sourceWith(root, home);
    const refused = await tool('run_skill_python').execute({ skill: 's', code: 'print(1)' }, testToolContext({ sessionId: 'other' }));
    expect(refused).toMatchObject({ status: 'ERROR', error: expect.stringContaining('not active') });
    const again = await tool('activate_skill').execute({ name: 's' }, testToolContext({ sessionId: 'reopened', conversation: () => ({ messages: [{ role: 'tool', content: '# Skill s\nFolder: …' }] }) }));
    expect(again.formattedText).toMatch(/already active/);
  });
});

describe('read_skill_file', () => {
  it('reads inside the folder and refuses .., absolute paths and symlinks out', async () => {
    const { userHome, home } = skillHomes();
    const root = join(userHome, 'skills');
    const dir = writeSkill(root, 's', { name: 's', description: 'd' }, 'x', { 'references/r.md': 'the reference' });
    mkdirSync(join(userHome, '.ssh'), { recursive: true });
    writeFileSync(join(userHome, '.ssh/id_rsa'), 'PRIVATE KEY');
    symlinkSync(join(userHome, '.ssh/id_rsa'), join(dir, 'key'));
    symlinkSync(join(userHome, '.ssh'), join(dir, 'sshdir'));
    const { tool } = sourceWith(root, home);
    const read = (path: string) => tool('read_skill_file').execute({ skill: 's', path }, testToolContext());
    expect(await read('references/r.md')).toMatchObject({ status: 'SUCCESS', data: 'the reference' });
    for (const [path, why] of [
      ['../../.ssh/id_rsa', /out of the skill's folder/],
      [join(userHome, '.ssh/id_rsa'), /absolute path/],
      ['key', /link that leads out/],
      ['sshdir/id_rsa', /link that leads out/],
    ] as const) {
      const result = await read(path);
      expect(result.status, path).toBe('ERROR');
      expect(result.error).toMatch(why);
      expect(JSON.stringify(result)).not.toContain('PRIVATE KEY');
    }
  });
});
