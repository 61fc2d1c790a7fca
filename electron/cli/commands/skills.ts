// `tooldesk skills <sub-command>`: Agent Skills (SKILL.md folders). Each sub-command in its own
// file, imported only when it runs.
import type { Command, CommandEntry } from '../command.ts';
import { commandGroup } from '../command-group.ts';

export const SKILLS_SUBCOMMANDS: CommandEntry[] = [
  { name: 'list', summary: 'List the skills found: name, origin, description, file count (--json)', load: async () => (await import('./skills-list.ts')).skillsListCommand },
  { name: 'show', summary: "Print a skill's front matter and instructions (nothing in it runs)", load: async () => (await import('./skills-list.ts')).skillsShowCommand },
  { name: 'enable', summary: 'Switch a skill on (persisted in the settings)', load: async () => (await import('./skills-enable.ts')).skillsEnableCommand },
  { name: 'disable', summary: 'Switch a skill off (persisted in the settings)', load: async () => (await import('./skills-enable.ts')).skillsDisableCommand },
  { name: 'check', summary: 'Flag risky patterns in skills (hidden Unicode, base64, curl | sh, credential reads, writes outside)', load: async () => (await import('./skills-check.ts')).skillsCheckCommand },
  { name: 'install', summary: 'Install a skill folder or a .zip/.skill archive into TOOLDESK_HOME/skills (--yes)', load: async () => (await import('./skills-install.ts')).skillsInstallCommand },
  { name: 'remove', summary: 'Remove a skill installed in TOOLDESK_HOME/skills (its environment and approvals too)', load: async () => (await import('./skills-install.ts')).skillsRemoveCommand },
  { name: 'new', summary: 'Create a skill from the template in TOOLDESK_HOME/skills (SKILL.md and scripts/hello.py)', load: async () => (await import('./skills-install.ts')).skillsNewCommand },
  { name: 'deps', summary: "Install Python packages into a skill's own environment with pip as configured (--add PKG, --yes)", load: async () => (await import('./skills-deps.ts')).skillsDepsCommand },
];

export const skillsCommand: Command = commandGroup({
  name: 'skills',
  summary: 'Agent Skills: list, show, check, install, remove skills and their Python packages',
  subcommands: SKILLS_SUBCOMMANDS,
  footer: ['Skills are read from ~/.agents/skills, ~/.claude/skills, ~/.codex/skills, TOOLDESK_HOME/skills,', 'the `skillRoots` setting and (once trusted) the project\'s .agents/skills and .claude/skills.', ''],
});
