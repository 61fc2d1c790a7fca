// `tooldesk skills <sub-command>`: Agent Skills (SKILL.md folders). Each sub-command in its own
// file, imported only when it runs.
import type { Command, CommandEntry } from '../command.ts';
import { commandGroup } from '../command-group.ts';

export const SKILLS_SUBCOMMANDS: CommandEntry[] = [
  { name: 'list', summary: 'List the skills found: name, origin, description, file count (--json)', load: async () => (await import('./skills-list.ts')).skillsListCommand },
  { name: 'show', summary: "Print a skill's front matter and instructions (nothing in it runs)", load: async () => (await import('./skills-list.ts')).skillsShowCommand },
  { name: 'enable', summary: 'Switch a skill on (persisted in the settings)', load: async () => (await import('./skills-enable.ts')).skillsEnableCommand },
  { name: 'disable', summary: 'Switch a skill off (persisted in the settings)', load: async () => (await import('./skills-enable.ts')).skillsDisableCommand },
];

export const skillsCommand: Command = commandGroup({
  name: 'skills',
  summary: 'Agent Skills: list, show, enable or disable the skills the model may use',
  subcommands: SKILLS_SUBCOMMANDS,
  footer: ['Skills are read from ~/.agents/skills, ~/.claude/skills, ~/.codex/skills, TOOLDESK_HOME/skills,', 'the `skillRoots` setting and (once trusted) the project\'s .agents/skills and .claude/skills.', ''],
});
