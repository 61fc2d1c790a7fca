// `tooldesk serve`: the app in a browser, over a token-guarded WebSocket on 127.0.0.1.
import { UsageError, type Command } from '../command.ts';
import { flag, option, parseArgs } from '../parse-args.ts';
import { runBrowserMode } from '../serve/run-browser-mode.ts';

/** The --port value; absent: `fallback` (undefined when none: browser mode then remembers its last port). */
export function parsePort(value: string | undefined, fallback: number): number;
export function parsePort(value: string | undefined): number | undefined;
export function parsePort(value: string | undefined, fallback?: number): number | undefined {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--port needs a number from 0 to 65535 (got "${value}")`);
  return port;
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the app in your browser (127.0.0.1 only, token-guarded)',
  usage: [
    'Usage: tooldesk serve [--port N] [--new-token] [--open] [--no-build]',
    '',
    'Serves the app and its API on http://127.0.0.1:N and prints the link to open, which carries',
    'a random access token. Only this machine can connect; the token, the Host and the Origin are',
    'checked on every connection. The port and token are kept for the next start (in',
    'browser-mode.json in the data folder), so an open tab reconnects by itself.',
    '',
    '  --port N     listen on port N (0 = any free port); default: the port of the last start',
    '  --new-token  make a new access token (links with the old one stop working)',
    '  --open       open the link in the system browser',
    '  --no-build   serve out/renderer as it is (skip the rebuild when sources changed)',
  ].join('\n'),
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['port'], booleans: ['open', 'no-build', 'new-token'] });
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const port = parsePort(option(args, 'port'));
    return runBrowserMode({ ...(port !== undefined ? { port } : {}), newToken: flag(args, 'new-token'), open: flag(args, 'open'), build: !flag(args, 'no-build') }, io);
  },
};
