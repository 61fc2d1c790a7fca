// `tooldesk tools enable|disable GROUP|TOOL`: persists groupDefaults / toolDefaults, the same
// enable state the settings toggles show. Sub-commands of `tools` (see tools.ts).
import { VARS_GROUP } from '../../runtime/tools/variables/vars-tools.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type CliIO, type Command } from '../command.ts';
import { flag, parseArgs } from '../parse-args.ts';

async function setEnabled(argv: string[], io: CliIO, enabled: boolean): Promise<number> {
  const args = parseArgs(argv, { booleans: ['group', 'tool'] });
  const [name, ...extra] = args.positionals;
  if (!name) throw new UsageError('missing the GROUP or TOOL name');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (flag(args, 'group') && flag(args, 'tool')) throw new UsageError('--group and --tool exclude each other');
  let kind: 'group' | 'tool' | undefined = flag(args, 'group') ? 'group' : flag(args, 'tool') ? 'tool' : undefined;
  // The name is looked up among the loaded tools unless --group/--tool says what it is.
  const runtime = await openCliRuntime(io, { tools: kind ? false : { args } });
  const { settings } = runtime;
  try {
    if (!kind) {
      const groups = (await runtime.tools()).source.groups();
      if (name === VARS_GROUP || groups.some((g) => g.name === name)) kind = 'group';
      else if (groups.some((g) => g.tools.some((t) => t.definition.function.name === name))) kind = 'tool';
      else {
        const known = groups.map((g) => g.name).join(', ') || 'none found';
        io.stderr.write(`tooldesk tools: no group or tool named "${name}" (groups: ${known}). Use --group or --tool to set it anyway.\n`);
        return 1;
      }
    }
    const key = kind === 'group' ? 'groupDefaults' : 'toolDefaults';
    settings.set(key, { ...settings.get()[key], [name]: enabled });
    io.stdout.write(`${kind} ${name} ${enabled ? 'enabled' : 'disabled'}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
}

const usage = (verb: 'enable' | 'disable') =>
  [
    `Usage: tooldesk tools ${verb} GROUP|TOOL [--group | --tool]`,
    '',
    `${verb === 'enable' ? 'Enables' : 'Disables'} a tool group (all its tools) or a single tool, for every session.`,
    'Groups start disabled; tools in an enabled group start enabled. The name is looked up among',
    'the loaded tools; --group or --tool skips the lookup (e.g. for a tool that is not there yet).',
    'The built-in group "vars" holds WriteVar/RemoveVars; ReadVar/ListVars come with any enabled group.',
  ].join('\n');

export const toolsEnableCommand: Command = {
  name: 'enable',
  summary: 'Enable a tool group or a tool (persisted in the settings)',
  usage: usage('enable'),
  run: (argv, io) => setEnabled(argv, io, true),
};

export const toolsDisableCommand: Command = {
  name: 'disable',
  summary: 'Disable a tool group or a tool (persisted in the settings)',
  usage: usage('disable'),
  run: (argv, io) => setEnabled(argv, io, false),
};
