// Entry of the `tooldesk` command: dispatches to commands/, prints help and version. It imports
// no command and nothing of the runtime until a command runs (`--version` and `help` stay instant).
import type { CliIO, CommandEntry } from './command.ts';
import { loadCommand, UsageError } from './command.ts';
import { COMMANDS } from './commands/index.ts';
import { VERSION } from './version.ts';

function helpText(commands: CommandEntry[]): string {
  const width = Math.max(...commands.map((c) => c.name.length), 'help'.length);
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    `tooldesk ${VERSION} — chat with a language model that calls your own tools`,
    '',
    'Usage: tooldesk <command> [options]',
    '',
    'Commands:',
    ...lines,
    `  ${'help'.padEnd(width)}  Show this help, or a command's usage: tooldesk help <command>`,
    '',
    'Options: --version prints the version. TOOLDESK_HOME relocates everything Tooldesk writes.',
    '',
  ].join('\n');
}

export async function main(argv: string[], io: CliIO = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const topic = name === 'help' ? rest[0] : undefined;
    const entry = topic ? COMMANDS.find((c) => c.name === topic) : undefined;
    if (topic && !entry) {
      io.stderr.write(`tooldesk: no command "${topic}". Run \`tooldesk help\` for the list.\n`);
      return 2;
    }
    io.stdout.write(entry ? `${(await loadCommand(entry)).usage.trimEnd()}\n` : helpText(COMMANDS));
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    // Loaded only for a mistyped command: `--version` and `help` import nothing of the runtime.
    const { didYouMean } = await import('./did-you-mean.ts');
    io.stderr.write(`tooldesk: unknown command "${name}".${didYouMean(name, COMMANDS.map((c) => c.name))} Run \`tooldesk help\` for the list.\n`);
    return 2;
  }
  const command = await loadCommand(entry);
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`tooldesk ${name}: ${error.message}\n\n${command.usage.trimEnd()}\n`);
      return 2;
    }
    // A file Tooldesk cannot use is the user's to fix: its one line says which and how, no stack.
    const { FileError } = await import('../runtime/base/file-error.ts');
    if (error instanceof FileError) {
      io.stderr.write(`tooldesk ${name}: ${error.message}\n`);
      return 1;
    }
    io.stderr.write(`tooldesk ${name}: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    return 1;
  }
}
