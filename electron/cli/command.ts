// What a CLI command is. Each command lives in its own file under commands/.

export interface CliIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
}

export interface Command {
  name: string;
  /** One line for `tooldesk help`. */
  summary: string;
  /** Full usage text for `tooldesk help <name>`. */
  usage: string;
  /** Resolves with the process exit code. */
  run(argv: string[], io: CliIO): Promise<number>;
}

/**
 * A line of a command table: the name and summary `help` lists, and the module that holds the
 * command, imported only when the command runs (or its usage is asked for). Keeping the import
 * behind `load` is what lets `tooldesk --version` and `help` start without loading the runtime.
 */
export interface LazyCommand {
  name: string;
  summary: string;
  load: () => Promise<Command>;
}

/** What a command table holds: lazy lines; a ready Command is accepted too. */
export type CommandEntry = LazyCommand | Command;

export function loadCommand(entry: CommandEntry): Promise<Command> {
  return 'load' in entry ? entry.load() : Promise.resolve(entry);
}

/** Thrown for bad command-line input; main() prints it with the command's usage, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
