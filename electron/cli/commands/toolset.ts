// `tooldesk toolset add|list|remove`: named tool sets (settings.toolSets) a chat picks with
// `/toolset NAME` or `chat --toolset NAME`, and `mcp serve --toolset NAME` serves.
import { PERMISSION_LEVELS, type PermissionLevel, type ToolSet } from '../../../shared/permissions.ts';
import { withCliRuntime } from '../cli-runtime.ts';
import { UsageError, type Command } from '../command.ts';
import { commandGroup } from '../command-group.ts';
import { option, parseArgs } from '../parse-args.ts';
import { settingsListCommand } from '../settings-list-command.ts';
import { describeToolSet } from './rules-text.ts';

const addCommand: Command = {
  name: 'add',
  summary: 'Add or replace a tool set: toolset add NAME ITEM… [--level LEVEL]',
  usage: [
    'Usage: tooldesk toolset add NAME ITEM... [--level ask|default|read-only-auto|trusted]',
    '',
    'ITEM is `group:G` (every tool of group G), `tool:T`, `skill:S` (skill S: chats using the set',
    'offer only the skills it names, with the skill tools), or a bare name: a group when it is the',
    'name of an MCP server or of a group Tooldesk has a switch for, else a tool.',
    'A set with the same NAME is replaced. --level is the permission level of chats using the set.',
    '',
    'Example: tooldesk toolset add web group:browser fetch_url --level read-only-auto',
    '         tooldesk toolset add forms skill:pdf tool:read_file',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['level'] });
    const [name, ...items] = args.positionals;
    if (!name) throw new UsageError('missing the tool set NAME');
    if (/\s/.test(name)) throw new UsageError(`a tool set name has no spaces (got "${name}"): \`/toolset NAME\` reads one word`);
    if (items.length === 0) throw new UsageError('name at least one ITEM (group:G, tool:T, skill:S or a name)');
    const level = option(args, 'level');
    if (level !== undefined && !PERMISSION_LEVELS.includes(level as PermissionLevel)) throw new UsageError(`--level must be one of ${PERMISSION_LEVELS.join(', ')} (got "${level}")`);
    return withCliRuntime(io, async (runtime) => {
      const settings = runtime.settings.get();
      const knownGroups = new Set([...Object.keys(settings.mcpServers ?? {}), ...Object.keys(settings.groupDefaults ?? {})]);
      const groups: string[] = [];
      const tools: string[] = [];
      const skills: string[] = [];
      for (const item of items) {
        if (item.startsWith('skill:')) skills.push(item.slice(6));
        else if (item.startsWith('group:')) groups.push(item.slice(6));
        else if (item.startsWith('tool:')) tools.push(item.slice(5));
        else (knownGroups.has(item) ? groups : tools).push(item);
      }
      // A skill is named as `skills list` names it; a name that is no skill here is a mistake now.
      const ids: string[] = [];
      if (skills.length) {
        const source = await runtime.skills();
        for (const skill of skills) {
          const found = source.find(skill);
          if ('error' in found) {
            io.stderr.write(`tooldesk toolset add: tool set "${name}", skill:${skill}: ${found.error}. \`tooldesk skills list\` shows the skills.\n`);
            return 1;
          }
          if (!ids.includes(found.id)) ids.push(found.id);
        }
      }
      const set: ToolSet = { name, ...(groups.length ? { groups } : {}), ...(tools.length ? { tools } : {}), ...(ids.length ? { skills: ids } : {}), ...(level ? { level: level as PermissionLevel } : {}) };
      const others = (settings.toolSets ?? []).filter((s) => s.name !== name);
      const replaced = others.length !== (settings.toolSets ?? []).length;
      runtime.settings.set('toolSets', [...others, set]);
      io.stdout.write(`${replaced ? 'Replaced' : 'Added'} tool set ${describeToolSet(set)}\n`);
      return 0;
    });
  },
};

const listCommand = settingsListCommand({
  group: 'toolset',
  summary: 'List the tool sets',
  items: (settings) => settings.toolSets,
  empty: 'No tool sets. `tooldesk toolset add NAME ITEM…` makes one.',
  line: describeToolSet,
});

const removeCommand: Command = {
  name: 'remove',
  summary: 'Remove the tool set NAME',
  usage: 'Usage: tooldesk toolset remove NAME',
  async run(argv, io) {
    const args = parseArgs(argv);
    const [name, ...extra] = args.positionals;
    if (!name) throw new UsageError('missing the tool set NAME');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    return withCliRuntime(io, async (runtime) => {
      const sets = runtime.settings.get().toolSets ?? [];
      if (!sets.some((s) => s.name === name)) {
        io.stderr.write(`tooldesk toolset remove: no tool set "${name}"${sets.length ? ` (there are: ${sets.map((s) => s.name).join(', ')})` : ''}.\n`);
        return 1;
      }
      runtime.settings.set('toolSets', sets.filter((s) => s.name !== name));
      io.stdout.write(`Removed tool set ${name}\n`);
      return 0;
    });
  },
};

export const toolsetCommand: Command = commandGroup({
  name: 'toolset',
  summary: 'Named tool sets for chats (/toolset NAME, chat --toolset) and `mcp serve --toolset`',
  subcommands: [addCommand, listCommand, removeCommand],
});
