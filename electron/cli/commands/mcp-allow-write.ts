// `tooldesk mcp allow-write NAME PATH`: the answer to a write the sandbox refused — PATH becomes
// one of the server's writable folders (a running app restarts the server when it sees the change).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { entryAllowingWrite, serverWriteGuard } from '../../runtime/host/mcp-client.ts';
import { openCliRuntime } from '../cli-runtime.ts';
import { UsageError, type Command } from '../command.ts';
import { parseArgs } from '../parse-args.ts';
import { serverEntries, writeServers } from './mcp-store.ts';

export const mcpAllowWriteCommand: Command = {
  name: 'allow-write',
  summary: 'Let a server write to a folder (the answer to a write the sandbox refused)',
  usage: [
    'Usage: tooldesk mcp allow-write NAME PATH',
    '',
    'Adds PATH (a folder) to the server\'s "writable" folders. Everything else stays read-only;',
    'TOOLDESK_HOME, tool folders and credential folders stay read-only whatever you allow.',
    'Example: tooldesk mcp allow-write memory ~/.local/share/mcp-memory',
  ].join('\n'),
  async run(argv, io) {
    const [name, path, ...extra] = parseArgs(argv).positionals;
    if (!name || !path) throw new UsageError('mcp allow-write needs the NAME of the server and the PATH of a folder');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const folder = resolve(path.startsWith('~/') ? path.replace('~', io.env.HOME ?? '~') : path);
    let isFolder = false;
    try {
      isFolder = statSync(folder).isDirectory();
    } catch {
      isFolder = false;
    }
    if (!isFolder) {
      io.stderr.write(`tooldesk mcp allow-write: ${folder} is not a folder; give the folder the server writes in (create it first if it should exist)\n`);
      return 1;
    }
    if (folder === '/' || folder === resolve(io.env.HOME ?? '/')) {
      io.stderr.write(`tooldesk mcp allow-write: ${folder} is ${folder === '/' ? 'the whole file system' : 'your whole home'}; give the one folder the server needs\n`);
      return 1;
    }
    const { settings, home } = await openCliRuntime(io, { tools: false });
    try {
      const servers = serverEntries(settings);
      const entry = servers[name];
      if (!entry) {
        io.stderr.write(`tooldesk mcp allow-write: no server named "${name}" (see tooldesk mcp list)\n`);
        return 1;
      }
      const next = entryAllowingWrite(entry, folder, serverWriteGuard(settings.get(), home, io.env.HOME));
      if ('error' in next) {
        io.stderr.write(`tooldesk mcp allow-write: "${name}": ${next.error}\n`);
        return 1;
      }
      if (next.added.length === 0) {
        io.stdout.write(`"${name}" may already write to ${folder}\n`);
        return 0;
      }
      writeServers(settings, { ...servers, [name]: next.entry });
      io.stdout.write(`"${name}" may now write to ${next.added.join(', ')} (everything else stays read-only)\n`);
      return 0;
    } finally {
      settings.close();
    }
  },
};
