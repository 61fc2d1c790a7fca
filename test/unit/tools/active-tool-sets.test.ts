// A skill's accepted `allowed-tools` (skill-tool-sets.ts) as a ToolSession applies them: nothing
// changes until the skill is activated in that conversation; then the set narrows that
// conversation only, never switching on what was off; another conversation is untouched.
import { describe, expect, it } from 'vitest';
import { ActiveSkills } from '../../../electron/runtime/sources/skills/active-skills.ts';
import { activeSkillToolSets, allowedToolsSet } from '../../../electron/runtime/sources/skills/skill-tool-sets.ts';
import { ToolSession } from '../../../electron/runtime/tools/tool-session.ts';
import { defaultSettings, type Settings } from '../../../shared/settings.ts';
import { makeGroup, makeTool } from './make-tool.ts';

const names = (s: ToolSession) => s.definitions().map((d) => d.function.name).sort();

describe('allowed-tools as a tool set active while its skill is', () => {
  it('matches tools, groups and mcp__ names; the rest is left out', () => {
    const skill = { id: 'pdf', frontMatter: { name: 'pdf', description: 'd', allowedTools: ['files', 'b1', 'mcp__srv__t', 'Bash(git:*)', 'b1'] } };
    expect(allowedToolsSet(skill, { groups: ['files', 'skills'], tools: ['b1', 'srv__t'] })).toEqual({
      set: { name: 'skill:pdf', groups: ['skills', 'files'], tools: ['b1', 'srv__t'] },
      unmatched: ['Bash(git:*)'],
    });
  });

  it('narrows only the conversation where the skill became active, from then on', () => {
    const active = new ActiveSkills();
    const settings: Settings = {
      ...defaultSettings(),
      groupDefaults: { a: true, b: true },
      toolDefaults: { b2: false },
      toolSets: [{ name: 'skill:pdf', tools: ['b1', 'b2'] }],
      skills: { pdf: { toolSet: 'skill:pdf' } },
    };
    const deps = {
      tools: { groups: () => [makeGroup('a', [makeTool('a1')]), makeGroup('b', [makeTool('b1'), makeTool('b2')])] },
      settings: () => settings,
      activeToolSets: activeSkillToolSets(active, () => settings),
    };
    const one = new ToolSession(deps, { sessionId: 'one' });
    const two = new ToolSession(deps, { sessionId: 'two' });
    expect(names(one)).toEqual(['ListVars', 'ReadVar', 'a1', 'b1']);
    active.activate('one', 'pdf');
    // b2 stays off: the set names it, but the user switched it off.
    expect(names(one)).toEqual(['ListVars', 'ReadVar', 'b1']);
    expect(names(two)).toEqual(['ListVars', 'ReadVar', 'a1', 'b1']);
    // A skill without an accepted set changes nothing.
    active.activate('two', 'other');
    expect(names(two)).toEqual(['ListVars', 'ReadVar', 'a1', 'b1']);
    one.close();
    two.close();
  });
});
