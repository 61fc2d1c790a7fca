// Whether a skill is on: the user's switch (settings.skills[id].enabled), else on for skills of
// the user's own folders and `skillRoots`, off for project and MCP ones until switched on.
import type { Settings } from '../../../../shared/settings.ts';
import type { Skill } from './skill-types.ts';

export function skillEnabled(skill: Pick<Skill, 'id' | 'origin'>, settings: Pick<Settings, 'skills'>): boolean {
  const chosen = settings.skills?.[skill.id]?.enabled;
  if (chosen !== undefined) return chosen;
  return skill.origin.kind === 'user' || skill.origin.kind === 'custom';
}
