// `tooldesk secrets set|delete|list|has`: the OS keychain (service "Tooldesk"). Values are read
// from stdin, never from argv (argv is visible to other users in `ps`).
import { InvalidSecretNameError, KeyringUnavailableError } from '../../runtime/store/secret-store.ts';
import { openCliSecrets, readAll } from '../cli-settings.ts';
import { UsageError, type CliIO, type Command } from '../command.ts';
import { parseArgs } from '../parse-args.ts';

export const secretsCommand: Command = {
  name: 'secrets',
  summary: 'Store API keys and tool secrets in the OS keychain',
  usage: [
    'Usage: tooldesk secrets set NAME        (reads the value from stdin)',
    '       tooldesk secrets delete NAME',
    '       tooldesk secrets has NAME        (exit 0 when set, 1 when not)',
    '       tooldesk secrets list            (names only, never values)',
    '',
    'Examples:',
    '  printf %s "$KEY" | tooldesk secrets set OPENAI_API_KEY',
    '  tooldesk secrets set OPENAI_API_KEY   (then type or paste the key and press Ctrl-D)',
    '',
    'A provider uses a stored key through its "apiKeySecret" setting; a tool gets the secrets it',
    'declares as environment variables. Secrets never go into settings, sessions or logs.',
  ].join('\n'),
  async run(argv, io) {
    const { positionals } = parseArgs(argv);
    const [action, name, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (the value is read from stdin, never from arguments)`);
    const store = openCliSecrets(io);
    try {
      switch (action) {
        case 'set': {
          if (!name) throw new UsageError('secrets set needs a NAME');
          if ((io.stdin as { isTTY?: boolean }).isTTY) io.stderr.write(`Value for ${name} (end with Ctrl-D): `);
          const value = (await readAll(io.stdin)).replace(/\r?\n$/, '');
          if (value === '') {
            io.stderr.write('tooldesk secrets: no value on stdin; nothing stored\n');
            return 1;
          }
          await store.set(name, value);
          io.stderr.write(`stored ${name} in the keychain\n`);
          await clearSecretMissingMark(io, name);
          return 0;
        }
        case 'delete':
          if (!name) throw new UsageError('secrets delete needs a NAME');
          if (!(await store.delete(name))) {
            io.stderr.write(`tooldesk secrets: ${name} was not set\n`);
            return 1;
          }
          io.stderr.write(`deleted ${name}\n`);
          return 0;
        case 'has':
          if (!name) throw new UsageError('secrets has needs a NAME');
          return (await store.exists(name)) ? 0 : 1;
        case 'list':
          if (name) throw new UsageError('secrets list takes no NAME');
          for (const n of await store.list()) io.stdout.write(`${n}\n`);
          return 0;
        default:
          throw new UsageError(action ? `unknown action "${action}"` : 'missing action: set, delete, has or list');
      }
    } catch (error) {
      if (error instanceof KeyringUnavailableError) {
        // A CLI run ends right away, so keeping the value "for this run" would keep it for nothing.
        io.stderr.write(
          `tooldesk secrets: No system keyring is available (${error.detail}), so nothing can be stored. On Linux, install and ` +
            'unlock a Secret Service (gnome-keyring or KeePassXC) in a desktop session. Without one, `tooldesk chat` asks for a ' +
            "provider's key and keeps it for that run only, and the app (or `tooldesk serve`) keeps keys entered in Settings until it stops.\n",
        );
        return 1;
      }
      if (error instanceof InvalidSecretNameError) {
        io.stderr.write(`tooldesk secrets: ${error.message}\n`);
        return 1;
      }
      throw error;
    }
  },
};

/** A server marked "secret missing" for NAME (`mcp import --skip-secrets`) is not any more. */
async function clearSecretMissingMark(io: CliIO, name: string): Promise<void> {
  const [{ openCliRuntime }, { secretStored }] = await Promise.all([import('../cli-runtime.ts'), import('../../runtime/host/mcp-client.ts')]);
  const { settings } = await openCliRuntime(io, { tools: false });
  try {
    secretStored(settings, name);
  } finally {
    settings.close();
  }
}
