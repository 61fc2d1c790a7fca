// Each conversation's own view of the skills group (issue #34): a skill switched off in one
// conversation's Tools menu, or left out by its tool set's `skills`, is gone from that
// conversation's catalog and enums and a call naming it is refused with the reason; another
// conversation over the same runtime keeps it. A set naming no skill behaves as before.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SkillSource } from '../../../electron/runtime/sources/skills/skill-source.ts';
import { ToolSession } from '../../../electron/runtime/tools/tool-session.ts';
import { hiddenSkills, withSkillsGroup } from '../../../electron/runtime/tools/skill-scope.ts';
import { defaultSettings, type Settings } from '../../../shared/settings.ts';
import { skillHomes, writeSkill } from '../../support/skill-fixtures.ts';
import { testSourceContext } from '../../support/tool-source-context.ts';
import { makeGroup, makeTool } from './make-tool.ts';

function runtimeWith(settings: Settings) {
  const { userHome, home } = skillHomes();
  const root = join(userHome, 'skills');
  writeSkill(root, 'pdf', { name: 'pdf', description: 'Fills PDF forms.' });
  writeSkill(root, 'docx', { name: 'docx', description: 'Edits Word files.' });
  const skills = new SkillSource({ home, roots: () => [{ kind: 'user', label: 'agents', root }], settings: () => settings, context: () => testSourceContext({ home }) });
  skills.load();
  const other = makeGroup('files', [makeTool('read_file')]);
  const tools = { groups: () => [other, ...skills.groups()], onChanged: (listener: () => void) => skills.onChanged(() => listener()) };
  const deps = { tools, settings: () => settings, skillScope: skills.scope(), activeToolSets: skills.activeToolSets() };
  return { skills, root, open: (sessionId: string, options: { skillsOff?: string[]; toolSet?: string } = {}) => new ToolSession(deps, { sessionId, ...options }) };
}

const enumOf = (s: ToolSession, tool = 'activate_skill') =>
  (s.definitions().find((d) => d.function.name === tool)?.function.parameters as { properties: Record<string, { enum?: string[] }> } | undefined)?.properties[tool === 'activate_skill' ? 'name' : 'skill']?.enum;
const offered = (s: ToolSession) => s.definitions().map((d) => d.function.name).sort();

describe('skills per conversation', () => {
  it("a skill switched off in one conversation leaves that conversation's catalog, enums and calls only", async () => {
    const settings: Settings = { ...defaultSettings(), groupDefaults: { files: true } };
    const { open, skills, root } = runtimeWith(settings);
    const a = open('a');
    const b = open('b');
    expect(enumOf(a)).toEqual(['docx', 'pdf']);
    a.setSkillsOff(['pdf']);
    expect(a.skillsOff()).toEqual(['pdf']);
    expect(enumOf(a)).toEqual(['docx']);
    expect(enumOf(a, 'run_skill_script')).toEqual(['docx']);
    expect(a.toolRules()).toContain('- docx: Edits Word files.');
    expect(a.toolRules()).not.toContain('pdf');
    // The other conversation is untouched.
    expect(enumOf(b)).toEqual(['docx', 'pdf']);
    expect(b.toolRules()).toContain('- pdf: Fills PDF forms.');
    // A call naming it is refused with the reason, before any validation.
    const refused = await a.execute('activate_skill', { name: 'pdf' });
    expect(refused.status).toBe('ERROR');
    expect(refused.error).toBe("Skill pdf is switched off for this chat, so it cannot be used here. If it is needed, ask the user to switch it on in the chat's Tools menu.");
    expect((await a.execute('read_skill_file', JSON.stringify({ skill: 'pdf', path: 'SKILL.md' }))).error).toMatch(/^Skill pdf is switched off for this chat/);
    expect((await b.execute('activate_skill', { name: 'pdf' })).status).toBe('SUCCESS');
    expect((await a.execute('activate_skill', { name: 'docx' })).status).toBe('SUCCESS');
    // Every skill off: the skill tools are gone from that conversation, the others stay.
    a.setSkillsOff(['pdf', 'docx']);
    expect(offered(a)).toEqual(['ListVars', 'ReadVar', 'read_file']);
    expect((await a.execute('activate_skill', { name: 'docx' })).error).toMatch(/^Skill docx is switched off for this chat/);
    // Back on: the whole group again.
    a.setSkillsOff([]);
    expect(enumOf(a)).toEqual(['docx', 'pdf']);
    // A skill added later (the group rebuilt) joins both; the one switched off stays out of `a`.
    a.setSkillsOff(['pdf']);
    writeSkill(root, 'xlsx', { name: 'xlsx', description: 'Reads sheets.' });
    skills.load();
    expect(enumOf(a)).toEqual(['docx', 'xlsx']);
    expect(enumOf(b)).toEqual(['docx', 'pdf', 'xlsx']);
    a.close();
    b.close();
  });

  it('a tool set naming a skill offers only that skill (its tools on without naming the group); a set naming none keeps the old rule', async () => {
    const settings: Settings = {
      ...defaultSettings(),
      groupDefaults: { files: true },
      toolSets: [
        { name: 'forms', tools: ['read_file'], skills: ['pdf'] },
        { name: 'files-only', groups: ['files'] },
        { name: 'all-skills', groups: ['skills'] },
      ],
    };
    const { open } = runtimeWith(settings);
    const forms = open('forms', { toolSet: 'forms' });
    expect(offered(forms)).toEqual(['ListVars', 'ReadVar', 'activate_skill', 'read_file', 'read_skill_file', 'run_skill_python', 'run_skill_script']);
    expect(enumOf(forms)).toEqual(['pdf']);
    expect(forms.toolRules()).not.toContain('docx');
    expect((await forms.execute('activate_skill', { name: 'docx' })).error).toBe('Skill docx is not in this chat\'s tool set "forms" (its skills: pdf), so it cannot be used here.');
    expect(offered(open('f', { toolSet: 'files-only' }))).toEqual(['ListVars', 'ReadVar', 'read_file']);
    expect(enumOf(open('s', { toolSet: 'all-skills' }))).toEqual(['docx', 'pdf']);
    // Switched off in the chat wins over the set: nothing of the skills is left.
    forms.setSkillsOff(['pdf']);
    expect(enumOf(forms)).toBeUndefined();
  });

  it('reasons and the implied group are pure functions of the switches and sets', () => {
    expect([...hiddenSkills(['a', 'b', 'c'], ['c'], [{ name: 's', skills: ['a', 'c'] }]).keys()]).toEqual(['b', 'c']);
    expect(hiddenSkills(['a'], [], [{ name: 's', groups: ['skills'] }]).size).toBe(0);
    expect(withSkillsGroup({ name: 's', skills: ['a'] }, 'skills')).toEqual({ name: 's', skills: ['a'], groups: ['skills'] });
    const none = { name: 's', tools: ['x'] };
    expect(withSkillsGroup(none, 'skills')).toBe(none);
  });

  it('a reopened conversation gets back the skills it activated: their accepted set applies, activating again adds nothing', async () => {
    const settings: Settings = {
      ...defaultSettings(),
      groupDefaults: { files: true },
      toolSets: [{ name: 'skill:pdf', groups: ['skills'] }],
      skills: { pdf: { toolSet: 'skill:pdf' } },
    };
    const { open } = runtimeWith(settings);
    const first = open('one');
    const activated = await first.execute('activate_skill', { name: 'pdf' });
    expect(offered(first)).not.toContain('read_file');
    first.close();
    // A fresh runtime knows nothing of it until the conversation's results are read back.
    const fresh = runtimeWith(settings);
    const again = fresh.open('one');
    expect(offered(again)).toContain('read_file');
    again.restoreActivity([
      { toolName: 'read_skill_file', content: '# Skill docx\nnot an activation', status: 'SUCCESS' },
      { toolName: 'activate_skill', content: activated.finalText, status: activated.status },
    ]);
    expect(offered(again)).not.toContain('read_file');
    expect((await again.execute('activate_skill', { name: 'pdf' })).finalText).toMatch(/^Skill pdf is already active in this conversation/);
    expect((await again.execute('activate_skill', { name: 'docx' })).finalText).toMatch(/^# Skill docx\n/);
  });
});
