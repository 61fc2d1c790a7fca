// A process's command line as one copyable shell line: arguments quoted only where needed.

const SAFE = /^[\w@%+=:,./-]+$/;

export function shellQuote(arg: string): string {
  if (arg !== '' && SAFE.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function commandLine(command: string, args: string[]): string {
  return [command, ...args].map(shellQuote).join(' ');
}
