// `tooldesk mcp add NAME -- COMMAND [ARGS…]`, `tooldesk mcp add NAME --url URL [--header K:V]…`
// and `tooldesk mcp remove NAME`.
import { rmSync } from 'node:fs';
import { bundleTarget, moveSecrets, parseMcpServer } from '../../runtime/host/mcp-client.ts';
import { openCliSecrets } from '../cli-settings.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type Command } from '../command.ts';
import { flag, option, options, parseArgs } from '../parse-args.ts';
import { serverEntries, storeSecrets, writeServers } from './mcp-store.ts';

export const mcpAddCommand: Command = {
  name: 'add',
  summary: 'Add a server: NAME -- COMMAND [ARGS…], or NAME --url URL',
  usage: [
    'Usage: tooldesk mcp add NAME [options] -- COMMAND [ARGS…]     (a local server, over stdio)',
    '       tooldesk mcp add NAME --url URL [--header K:V]... [options]   (a remote server)',
    '',
    '  --env K=V        an environment variable for the server (repeatable)',
    '  --cwd DIR        the folder it runs in',
    '  --header K:V     an HTTP header (repeatable)',
    '  --sse            the legacy HTTP+SSE transport instead of Streamable HTTP',
    '  --trust          let its tool annotations set default approval policies',
    '  --sandbox MODE   auto (default) or off',
    '  --writable DIR   a folder it may write to under the sandbox (repeatable)',
    '  --timeout MS     per-call timeout, reset by progress (default 60000)',
    '  --enable         switch its group on now',
    '',
    'Values that look like secrets (keys named *KEY*, *TOKEN*, *SECRET*…, Bearer headers) are',
    'stored in the keychain and written to settings as ${secret:NAME} references.',
    '',
    'Examples:',
    '  tooldesk mcp add files -- npx -y @modelcontextprotocol/server-filesystem ~/Documents',
    '  tooldesk mcp add remote --url https://example.com/mcp --header "Authorization: Bearer $TOKEN"',
  ].join('\n'),
  async run(argv, io) {
    const split = argv.indexOf('--');
    const ours = split === -1 ? argv : argv.slice(0, split);
    const command = split === -1 ? [] : argv.slice(split + 1);
    const args = parseArgs(ours, { values: ['url', 'header', 'env', 'cwd', 'sandbox', 'writable', 'timeout'], booleans: ['sse', 'trust', 'enable'] });
    const [name, ...extra] = args.positionals;
    if (!name) throw new UsageError('mcp add needs the NAME of the server');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (put the server's command after --)`);
    const url = option(args, 'url');
    if (url && command.length > 0) throw new UsageError('give either --url or a command after --, not both');
    if (!url && command.length === 0) throw new UsageError('give the server\'s command after -- (or --url for a remote server)');

    const entry: Record<string, unknown> = {};
    if (url) {
      entry.url = url;
      if (flag(args, 'sse')) entry.type = 'sse';
      const headers: Record<string, string> = {};
      for (const header of options(args, 'header')) {
        const at = header.indexOf(':');
        if (at <= 0) throw new UsageError(`--header "${header}" must be NAME:VALUE`);
        headers[header.slice(0, at).trim()] = header.slice(at + 1).trim();
      }
      if (Object.keys(headers).length) entry.headers = headers;
    } else {
      entry.command = command[0];
      if (command.length > 1) entry.args = command.slice(1);
      const env: Record<string, string> = {};
      for (const pair of options(args, 'env')) {
        const at = pair.indexOf('=');
        if (at <= 0) throw new UsageError(`--env "${pair}" must be NAME=VALUE`);
        env[pair.slice(0, at)] = pair.slice(at + 1);
      }
      if (Object.keys(env).length) entry.env = env;
      if (option(args, 'cwd')) entry.cwd = option(args, 'cwd');
      if (option(args, 'sandbox')) entry.sandbox = option(args, 'sandbox');
      if (options(args, 'writable').length) entry.writable = options(args, 'writable');
    }
    if (flag(args, 'trust')) entry.trust = true;
    const timeout = option(args, 'timeout');
    if (timeout !== undefined) entry.timeoutMs = Number(timeout);

    const parsed = parseMcpServer(name, entry);
    if ('error' in parsed) throw new UsageError(parsed.error);
    const { settings } = await openCliRuntime(io, { tools: false });
    try {
      const servers = serverEntries(settings);
      if (servers[name]) {
        io.stderr.write(`tooldesk mcp add: a server named "${name}" already exists; remove it first (tooldesk mcp remove ${name})\n`);
        return 1;
      }
      const moved = moveSecrets(name, entry);
      if (!(await storeSecrets(io, moved.secrets))) return 1;
      writeServers(settings, { ...servers, [name]: moved.entry });
      if (flag(args, 'enable')) settings.set('groupDefaults', { ...settings.get().groupDefaults, [name]: true });
      io.stdout.write(`added MCP server "${name}"${flag(args, 'enable') ? ' (enabled)' : `; switch it on with \`tooldesk mcp enable ${name}\``}\n`);
      return 0;
    } finally {
      settings.close();
    }
  },
};

export const mcpRemoveCommand: Command = {
  name: 'remove',
  summary: 'Remove a server (an installed bundle: its files and sensitive settings too)',
  usage: 'Usage: tooldesk mcp remove NAME',
  async run(argv, io) {
    const [name, ...extra] = parseArgs(argv).positionals;
    if (!name) throw new UsageError('mcp remove needs the NAME of the server');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const { settings, home } = await openCliRuntime(io, { tools: false });
    try {
      const servers = serverEntries(settings);
      if (!servers[name]) {
        io.stderr.write(`tooldesk mcp remove: no server named "${name}" (see tooldesk mcp list)\n`);
        return 1;
      }
      const { [name]: removed, ...rest } = servers;
      writeServers(settings, rest);
      const { [name]: _switch, ...groups } = settings.get().groupDefaults;
      settings.set('groupDefaults', groups);
      io.stdout.write(`removed MCP server "${name}"\n`);
      // An installed bundle is uninstalled: its files and its sensitive settings go too.
      const bundle = removed?.bundle as { dir?: unknown; secrets?: unknown } | undefined;
      if (bundle && typeof bundle.dir === 'string' && bundle.dir === bundleTarget(home, name)) {
        rmSync(bundle.dir, { recursive: true, force: true });
        io.stdout.write(`deleted its bundle files (${bundle.dir})\n`);
        const store = openCliSecrets(io);
        for (const secret of Array.isArray(bundle.secrets) ? bundle.secrets.filter((x): x is string => typeof x === 'string' && x.startsWith(`mcp.${name}.`)) : []) {
          await store.delete(secret).then(
            () => io.stdout.write(`deleted ${secret} from the keychain\n`),
            (error: Error) => io.stderr.write(`could not delete ${secret} from the keychain: ${error.message}\n`),
          );
        }
      }
      return 0;
    } finally {
      settings.close();
    }
  },
};
