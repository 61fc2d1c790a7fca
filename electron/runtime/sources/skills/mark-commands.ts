// Claude Code runs a SKILL.md's `` !`command` `` lines on the host before the model sees the
// skill. Here nothing runs at load: each one reaches the model marked as a command the skill
// proposes, which it can only run through run_skill_script / run_skill_python, approved.
const INLINE_COMMAND = /!`([^`\n]+)`/g;

export const COMMAND_MARK = '[command proposed by the skill, NOT run]';

/** The body with every `` !`cmd` `` marked, and how many there were. */
export function markCommandLines(body: string): { text: string; count: number } {
  let count = 0;
  const text = body.replace(INLINE_COMMAND, (_all, command: string) => {
    count++;
    return `${COMMAND_MARK} \`${command}\``;
  });
  return { text, count };
}
