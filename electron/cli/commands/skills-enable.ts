// `tooldesk skills enable|disable NAME`: the skill's switch in settings.skills (by its id).
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type CliIO, type Command } from '../command.ts';
import { parseArgs } from '../parse-args.ts';

async function setEnabled(argv: string[], io: CliIO, enabled: boolean): Promise<number> {
  const [name, ...extra] = parseArgs(argv, {}).positionals;
  if (!name) throw new UsageError('missing the skill NAME');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const runtime = await openCliRuntime(io, { tools: false });
  try {
    const skill = (await runtime.skills()).find(name);
    if ('error' in skill) {
      io.stderr.write(`tooldesk skills: ${skill.error}\n`);
      return 1;
    }
    const all = runtime.settings.get().skills ?? {};
    runtime.settings.set('skills', { ...all, [skill.id]: { ...all[skill.id], enabled } });
    io.stdout.write(`skill ${skill.id} ${enabled ? 'enabled' : 'disabled'}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
}

const usage = (verb: string) => [`Usage: tooldesk skills ${verb} NAME`, '', `${verb === 'enable' ? 'Switches on' : 'Switches off'} one skill for every chat (settings.skills). Its scripts still ask before each run.`].join('\n');

export const skillsEnableCommand: Command = { name: 'enable', summary: 'Switch a skill on (persisted in the settings)', usage: usage('enable'), run: (argv, io) => setEnabled(argv, io, true) };
export const skillsDisableCommand: Command = { name: 'disable', summary: 'Switch a skill off (persisted in the settings)', usage: usage('disable'), run: (argv, io) => setEnabled(argv, io, false) };
