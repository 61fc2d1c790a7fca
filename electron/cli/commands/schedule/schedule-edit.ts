// `tooldesk schedule add|remove|enable|disable`: the settings' `schedules` list. An entry is
// checked (schedule-config.ts) before it is saved, so a bad cron or interval is refused here with
// what to write instead, never found later by the scheduler.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { PERMISSION_LEVELS, type PermissionLevel } from '../../../../shared/permissions.ts';
import { ON_ASK_CHOICES, type OnAsk, type ScheduleConfig } from '../../../../shared/schedules.ts';
import { checkSchedule } from '../../../runtime/schedules/schedule-config.ts';
import { systemTimeZone } from '../../../runtime/schedules/schedule-when.ts';
import { findToolSet } from '../../../runtime/tools/rules/rule-book.ts';
import { absentSkillsWarning } from '../../../runtime/tools/skill-scope.ts';
import { withCliRuntime } from '../../cli-runtime.ts';
import { UsageError, type Command } from '../../command.ts';
import { option, parseArgs } from '../../parse-args.ts';

export const addCommand: Command = {
  name: 'add',
  summary: 'Add (or replace) a schedule: schedule add NAME --every DUR|--cron EXPR --prompt TEXT',
  usage: [
    'Usage: tooldesk schedule add NAME (--every DUR | --cron EXPR [--timezone TZ]) --prompt TEXT',
    '         [--toolset S] [--permissions LEVEL] [--on-ask pause|deny] [--cwd DIR] [--model ID]',
    '',
    'Runs TEXT as a chat turn with nobody watching, in the schedule\'s own chat (one branch per run).',
    '  --every DUR        30m, 2h, 1d … (at least 1m); the first run comes one interval from now',
    '  --cron EXPR        five fields: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5"',
    '  --timezone TZ      the zone of --cron (default: this system\'s, recorded now)',
    '  --toolset S        only the tools of tool set S are offered; its rules apply',
    '  --permissions L    ask, default, read-only-auto or trusted: only ever tightens your settings;',
    '                     "trusted" still asks where your rules or a tool\'s own policy ask',
    '  --on-ask pause     a question pauses the run until you answer it (`tooldesk inbox`); default',
    '  --on-ask deny      a question is refused and the model told nobody was there',
    '  --cwd DIR          the folder its tools run in (default: the working-folder setting, recorded now)',
    '  --model ID         the model (default: the active provider\'s, recorded now)',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['every', 'cron', 'timezone', 'prompt', 'toolset', 'permissions', 'on-ask', 'cwd', 'model'] });
    const [name, ...extra] = args.positionals;
    if (!name) throw new UsageError('missing the schedule NAME');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}" (quote the prompt: --prompt "…")`);
    const prompt = option(args, 'prompt');
    if (!prompt?.trim()) throw new UsageError('missing --prompt TEXT (what to send at each run)');
    const every = option(args, 'every');
    const cron = option(args, 'cron');
    if ((every === undefined) === (cron === undefined)) throw new UsageError('give exactly one of --every DUR and --cron EXPR');
    const level = option(args, 'permissions');
    if (level !== undefined && !PERMISSION_LEVELS.includes(level as PermissionLevel)) throw new UsageError(`--permissions must be one of ${PERMISSION_LEVELS.join(', ')} (got "${level}")`);
    const onAsk = option(args, 'on-ask');
    if (onAsk !== undefined && !ON_ASK_CHOICES.includes(onAsk as OnAsk)) throw new UsageError(`--on-ask must be one of ${ON_ASK_CHOICES.join(', ')} (got "${onAsk}")`);
    const toolSet = option(args, 'toolset');
    return withCliRuntime(io, async (runtime) => {
      const settings = runtime.settings.get();
      if (toolSet && !findToolSet(settings, toolSet)) {
        const known = (settings.toolSets ?? []).map((s) => s.name);
        io.stderr.write(`tooldesk schedule add: no tool set "${toolSet}"${known.length ? ` (there are: ${known.join(', ')})` : ''}; \`tooldesk toolset add NAME ITEM…\` makes one\n`);
        return 1;
      }
      const set = toolSet ? findToolSet(settings, toolSet) : undefined;
      const absent = set?.skills?.length ? absentSkillsWarning(set, (await runtime.skills()).scope().ids()) : undefined;
      if (absent) io.stderr.write(`tooldesk schedule add: warning: ${absent}\n`);
      const active = settings.providers.find((p) => p.id === settings.activeProviderId);
      const model = option(args, 'model') ?? active?.model;
      const given = option(args, 'cwd');
      const cwd = given !== undefined ? resolve(given) : (settings.workingDir ?? undefined);
      if (given !== undefined && !isFolder(cwd!)) throw new UsageError(`--cwd: ${cwd} is not an existing folder (the folder the schedule's tools run in)`);
      const config: ScheduleConfig = {
        name,
        prompt,
        ...(every !== undefined ? { every } : { cron: cron!, timezone: option(args, 'timezone') ?? systemTimeZone() }),
        ...(toolSet ? { toolSet } : {}),
        ...(level ? { permissions: level as PermissionLevel } : {}),
        ...(onAsk ? { onAsk: onAsk as OnAsk } : {}),
        ...(cwd ? { cwd } : {}),
        ...(active && model ? { providerId: active.id } : {}),
        ...(model ? { model } : {}),
        createdAt: Date.now(),
      };
      const checked = checkSchedule(config, '', Date.now());
      if (checked.problem) throw new UsageError(checked.problem.replace(/^\.(\w+):/, (_, field: string) => (field === 'name' ? 'NAME:' : `--${field}:`)));
      const others = (settings.schedules ?? []).filter((s) => s.name !== name);
      const replaced = others.length !== (settings.schedules ?? []).length;
      runtime.settings.set('schedules', [...others, config]);
      io.stdout.write(`${replaced ? 'Replaced' : 'Added'} schedule ${name}: ${every ? `every ${every}` : `cron "${cron}" (${config.timezone})`}${onAsk === 'deny' ? ', refuses questions' : ', pauses on questions'}\n`);
      return 0;
    });
  },
};

export const removeCommand: Command = {
  name: 'remove',
  summary: 'Remove the schedule NAME (its chat and run records stay)',
  usage: 'Usage: tooldesk schedule remove NAME',
  run: (argv, io) => editOne(argv, io, 'remove', () => null),
};

export const enableCommand: Command = {
  name: 'enable',
  summary: 'Let the schedule NAME run again',
  usage: 'Usage: tooldesk schedule enable NAME',
  run: (argv, io) => editOne(argv, io, 'enable', ({ enabled: _, ...rest }) => rest),
};

export const disableCommand: Command = {
  name: 'disable',
  summary: 'Stop the schedule NAME from running (kept in the settings)',
  usage: 'Usage: tooldesk schedule disable NAME',
  run: (argv, io) => editOne(argv, io, 'disable', (config) => ({ ...config, enabled: false })),
};

async function editOne(argv: string[], io: Parameters<Command['run']>[1], verb: string, change: (config: ScheduleConfig) => ScheduleConfig | null): Promise<number> {
  const args = parseArgs(argv);
  const [name, ...extra] = args.positionals;
  if (!name) throw new UsageError('missing the schedule NAME');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
  return withCliRuntime(io, async (runtime) => {
    const schedules = runtime.settings.get().schedules ?? [];
    if (!schedules.some((s) => s.name === name)) {
      io.stderr.write(`tooldesk schedule ${verb}: no schedule "${name}"${schedules.length ? ` (there are: ${schedules.map((s) => s.name).join(', ')})` : ''}\n`);
      return 1;
    }
    const next = schedules.flatMap((s) => (s.name === name ? [change(s)].filter((c): c is ScheduleConfig => c !== null) : [s]));
    runtime.settings.set('schedules', next);
    io.stdout.write(`${verb === 'remove' ? 'Removed' : verb === 'enable' ? 'Enabled' : 'Disabled'} schedule ${name}\n`);
    return 0;
  });
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
