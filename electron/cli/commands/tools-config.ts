// `tooldesk tools config GROUP [KEY=VALUE…] [--user]`: an Open WebUI toolkit's Valves (UserValves
// with --user), the same values as Settings → Tool groups. Without KEY=VALUE it prints them.
import { readAll } from '../cli-settings.ts';
import { UsageError, type Command } from '../command.ts';
import { flag, parseArgs } from '../parse-args.ts';
import { loadCliTools } from '../tools-load.ts';
import { updateValves, viewValves, type GroupValvesView, type ValveView } from '../../runtime/host/services/valves-service.ts';

export const toolsConfigCommand: Command = {
  name: 'config',
  summary: 'Show or set an Open WebUI toolkit\'s Valves (--user: its UserValves)',
  usage: [
    'Usage: tooldesk tools config GROUP [KEY=VALUE]... [--user] [--root DIR]...',
    '',
    'Without KEY=VALUE, prints the Valves and UserValves of GROUP: each field, its type, the value',
    'that applies and its default. With them, sets Valves (UserValves with --user):',
    '  KEY=VALUE   checked against the field\'s type (integers, numbers, true/false, enums, JSON lists)',
    '  KEY=       back to the default written in the file',
    '  KEY=-      reads the value from stdin (for secrets: nothing in your shell history)',
    'Fields named like key/token/password/secret (or described as one) are kept in the keychain.',
    '',
    'Example: tooldesk tools config weather_owui UNITS=metric',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['root'], booleans: ['user'] });
    const [group, ...pairs] = args.positionals;
    if (!group) throw new UsageError('missing the tool GROUP');
    const assignments: Record<string, string> = {};
    for (const pair of pairs) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new UsageError(`"${pair}" is not KEY=VALUE`);
      assignments[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    const fromStdin = Object.entries(assignments).filter(([, v]) => v === '-');
    if (fromStdin.length > 1) throw new UsageError('only one KEY=- can read stdin');
    if (fromStdin[0]) assignments[fromStdin[0][0]] = (await readAll(io.stdin)).replace(/\r?\n$/, '');
    const loaded = await loadCliTools(args, io);
    try {
      const view = pairs.length
        ? await updateValves(loaded.home, loaded.groups, group, flag(args, 'user') ? 'userValves' : 'valves', assignments, loaded.runtime.secrets)
        : await viewValves(loaded.home, loaded.groups, group);
      io.stdout.write(formatValves(view));
      return 0;
    } catch (error) {
      io.stderr.write(`tooldesk tools config: ${(error as Error).message}\n`);
      return 1;
    } finally {
      await loaded.close();
    }
  },
};

function formatValves(view: GroupValvesView): string {
  const lines = [`${view.group} — ${view.file}`];
  for (const [title, list] of [['Valves', view.valves], ['UserValves (--user)', view.userValves]] as const) {
    if (list.length === 0) continue;
    lines.push(`${title}:`);
    for (const valve of list) lines.push(`  ${formatValve(valve)}`);
  }
  if (view.valves.length + view.userValves.length === 0) lines.push('  (no Valves or UserValves)');
  return `${lines.join('\n')}\n`;
}

function formatValve(valve: ValveView): string {
  const type = String(valve.schema.type ?? 'any');
  const now = valve.secret
    ? valve.secretSet ? '(set, in the keychain)' : `(not set: ${JSON.stringify(valve.default)})`
    : valve.value !== undefined ? JSON.stringify(valve.value) : `${JSON.stringify(valve.default)} (default)`;
  const note = valve.description ? ` — ${valve.description}` : '';
  return `${valve.name} (${type}${valve.secret ? ', secret' : ''}) = ${now}${!valve.secret && valve.value !== undefined ? ` [default ${JSON.stringify(valve.default)}]` : ''}${note}`;
}
