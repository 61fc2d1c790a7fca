// Agent Skills (the seventh format): SKILL.md folders read as data, their scripts run only as
// approved, sandboxed tool calls. See skill-source.ts for the live set and skill-tools.ts for
// what the model sees.
export { SkillSource, type SkillSourceOptions } from './skill-source.ts';
export { skillRootsFromSettings, skillRootsKey, installedSkillsDir, type SkillRoot } from './skill-roots.ts';
export { skillEnabled } from './skill-enabled.ts';
export { SKILLS_GROUP, ACTIVATE_SKILL, READ_SKILL_FILE, RUN_SKILL_SCRIPT, RUN_SKILL_PYTHON, activationText } from './skill-tools.ts';
export { skillCatalog, SKILL_CATALOG_BUDGET_CHARS } from './skill-catalog.ts';
export { markCommandLines } from './mark-commands.ts';
export { scanSkillFlags, flagText, type SkillFlag } from './skill-flags.ts';
export type { Skill, SkillOrigin, SkillFrontMatter } from './skill-types.ts';
