// A command made of sub-commands (`tooldesk tools …`, `tooldesk mcp …`): usage listing, --help,
// and usage errors reported against the sub-command that raised them.
import type { Command, CommandEntry } from './command.ts';
import { loadCommand, UsageError } from './command.ts';
import { didYouMean } from './did-you-mean.ts';

export interface CommandGroupSpec {
  name: string;
  summary: string;
  /** Each sub-command's module is imported only when it runs or its usage is asked for. */
  subcommands: CommandEntry[];
  /** Lines after the list in the group's usage. */
  footer?: string[];
}

/** A command made of sub-commands; `subcommands` lets docs/commands.md list each one. */
export type CommandGroup = Command & { readonly subcommands: readonly CommandEntry[] };

export function commandGroup(spec: CommandGroupSpec): CommandGroup {
  const usage = (): string => {
    const width = Math.max(...spec.subcommands.map((c) => c.name.length));
    return [
      `Usage: tooldesk ${spec.name} <sub-command> [options]`,
      '',
      ...spec.subcommands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
      '',
      ...(spec.footer ?? []),
      `Run \`tooldesk ${spec.name} <sub-command> --help\` for its options.`,
    ].join('\n');
  };
  return {
    name: spec.name,
    summary: spec.summary,
    subcommands: spec.subcommands,
    get usage() {
      return usage();
    },
    async run(argv, io) {
      const [name, ...rest] = argv;
      if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
        io.stdout.write(`${usage()}\n`);
        return name === undefined ? 2 : 0;
      }
      const entry = spec.subcommands.find((c) => c.name === name);
      if (!entry) throw new UsageError(`unknown sub-command "${name}".${didYouMean(name, spec.subcommands.map((c) => c.name))}`);
      const sub = await loadCommand(entry);
      // `mcp add NAME -- COMMAND --help` passes --help to the server's command, not to us.
      const ours = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
      if (ours.includes('--help') || ours.includes('-h')) {
        io.stdout.write(`${sub.usage.trimEnd()}\n`);
        return 0;
      }
      try {
        return await sub.run(rest, io);
      } catch (error) {
        if (error instanceof UsageError) {
          io.stderr.write(`tooldesk ${spec.name} ${name}: ${error.message}\n\n${sub.usage.trimEnd()}\n`);
          return 2;
        }
        throw error;
      }
    },
  };
}
