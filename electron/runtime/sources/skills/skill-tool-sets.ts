// `allowed-tools` is a proposal, never a grant (issue #34). The user may accept it: it becomes a
// tool set `skill:ID` (settings.toolSets, bound in settings.skills[ID].toolSet) naming the tools
// and groups of this app the proposal matches, plus the skills group itself. The set is applied
// to a conversation only while the skill is active there, and like every tool set it only
// narrows what is switched on: it never turns on a tool the user switched off, never changes a
// policy, never skips an approval.
import { skillToolSetName } from '../../../../shared/api-skills.ts';
import type { ToolSet } from '../../../../shared/permissions.ts';
import type { Settings } from '../../../../shared/settings.ts';
import type { ToolSessionDeps } from '../../tools/tool-session.ts';
import { findToolSet } from '../../tools/rules/rule-book.ts';
import type { ActiveSkills } from './active-skills.ts';
import { ACTIVATE_SKILL, SKILLS_GROUP } from './skill-tools.ts';
import type { Skill } from './skill-types.ts';

export interface AllowedToolsMatch {
  set: ToolSet;
  /** Entries of `allowed-tools` that name nothing here (other hosts' tools such as `Bash(git:*)`). */
  unmatched: string[];
}

/**
 * The tool set a skill's `allowed-tools` proposes, over the groups and tools loaded now. An entry
 * matches a group name, a tool's real or model name, or (Claude Code's spelling of MCP tools)
 * `mcp__SERVER__tool` for this app's `SERVER__tool`; `Name(pattern)` is matched by `Name`.
 */
export function allowedToolsSet(skill: Pick<Skill, 'id' | 'frontMatter'>, known: { groups: string[]; tools: string[] }): AllowedToolsMatch {
  const groups = new Set(known.groups);
  const tools = new Set(known.tools);
  const set: ToolSet = { name: skillToolSetName(skill.id), groups: [SKILLS_GROUP], tools: [] };
  const unmatched: string[] = [];
  for (const entry of skill.frontMatter.allowedTools ?? []) {
    const bare = entry.replace(/\(.*\)$/s, '').trim();
    const mcp = bare.startsWith('mcp__') ? bare.slice('mcp__'.length) : undefined;
    if (groups.has(bare)) {
      if (!set.groups!.includes(bare)) set.groups!.push(bare);
    } else if (tools.has(bare) || (mcp !== undefined && tools.has(mcp))) {
      const name = tools.has(bare) ? bare : mcp!;
      if (!set.tools!.includes(name)) set.tools!.push(name);
    } else unmatched.push(entry);
  }
  return { set, unmatched };
}

/** The ToolSession's `activeToolSets` port over the skills active in each conversation. */
export function activeSkillToolSets(active: ActiveSkills, settings: () => Settings): NonNullable<ToolSessionDeps['activeToolSets']> {
  return {
    sets(sessionId) {
      const current = settings();
      const sets: ToolSet[] = [];
      for (const id of active.of(sessionId)) {
        const name = current.skills?.[id]?.toolSet;
        const set = name ? findToolSet(current, name) : undefined;
        if (set) sets.push(set);
      }
      return sets;
    },
    onChanged: (listener) => active.onActivated(({ sessionId }) => listener(sessionId)),
    restore: (sessionId, results) => active.restore(sessionId, results, ACTIVATE_SKILL),
  };
}
