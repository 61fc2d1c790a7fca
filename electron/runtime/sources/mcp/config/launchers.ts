// How users' configs start servers — `npx -y pkg`, `uvx pkg`, `bunx`, `docker run -i` — and
// what each needs under the default sandbox: its package cache writable, or the sandbox off.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { StdioServer } from './server-config.ts';

/** Package launchers and the cache each one writes to. */
const LAUNCHER_CACHES: Record<string, string | undefined> = { npx: '~/.npm', npm: '~/.npm', pnpm: '~/.local/share/pnpm', pnpx: '~/.local/share/pnpm', bunx: '~/.bun', bun: '~/.bun', uvx: '~/.cache/uv', uv: '~/.cache/uv' };

const launcherOf = (command: string) => basename(command).replace(/\.(cmd|exe)$/i, '');

export function expandHome(path: string): string {
  return path === '~' ? homedir() : path.startsWith('~/') ? join(homedir(), path.slice(2)) : path;
}

/**
 * The existing folders a stdio server's arguments name (`/srv/data`, `~/Documents`,
 * `--root=/srv`): what the user gave it to work on. Never `/` or the home itself.
 */
export function argFolders(args: readonly string[], home = homedir()): string[] {
  const folders: string[] = [];
  for (const arg of args) {
    const value = arg.startsWith('--') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg;
    if (!(isAbsolute(value) || value === '~' || value.startsWith('~/'))) continue;
    const path = resolve(expandHome(value));
    if (path === '/' || path === resolve(home)) continue;
    try {
      if (statSync(path).isDirectory() && !folders.includes(path)) folders.push(path);
    } catch {
      // Not a folder (yet): a file, a flag value, a path the server creates itself.
    }
  }
  return folders;
}

/**
 * The folders a server may write to: its `writable` ones, the existing folders its arguments
 * name (unless `writeArgFolders` is false), and its launcher's cache when `writable` is empty.
 * The sandbox still keeps protected paths (TOOLDESK_HOME, tool roots, credentials) read-only.
 */
export function writableFolders(server: StdioServer): { folders: string[]; launcherCache: boolean; fromArgs: string[] } {
  const fromArgs = server.writeArgFolders ? argFolders(server.args) : [];
  const own = server.writable.map(expandHome);
  const cache = server.writable.length > 0 || server.sandbox === 'off' ? undefined : LAUNCHER_CACHES[launcherOf(server.command)];
  const cacheDir = cache ? expandHome(cache) : undefined;
  const folders = [...(cacheDir ? [cacheDir] : []), ...own, ...fromArgs.filter((f) => !own.includes(f))];
  return { folders, launcherCache: cacheDir !== undefined, fromArgs };
}

/** The launcher's cache folder when the server is started through one (npx, uvx, …). */
export function launcherCacheOf(command: string): string | undefined {
  const cache = LAUNCHER_CACHES[launcherOf(command)];
  return cache ? expandHome(cache) : undefined;
}

/** What to change when a sandboxed launcher could not start. */
export function launcherHint(server: StdioServer): string | undefined {
  const launcher = launcherOf(server.command);
  if (launcher === 'docker') return 'hint: docker needs its daemon socket, which the sandbox hides: set "sandbox": "off" for this server';
  const cache = LAUNCHER_CACHES[launcher];
  if (!cache || server.writable.length === 0) return undefined;
  return `hint: ${launcher} writes to ${cache}, read-only under the sandbox unless it is one of the "writable" folders: add it there, or set "sandbox": "off" for this server`;
}

/**
 * Folders under the temp folder that a server's command line names (`node /tmp/x/server.js`, a
 * checkout or an unpacked package there): the sandbox's private /tmp would hide them, so the top
 * folder of each stays readable (its node_modules next to the script included).
 */
export function tempFoldersNamed(command: string, args: readonly string[], temp = tmpdir()): string[] {
  let root: string;
  try {
    root = realpathSync(temp);
  } catch {
    return [];
  }
  const folders = new Set<string>();
  for (const word of [command, ...args]) {
    if (!isAbsolute(word) || !existsSync(word)) continue;
    const rel = relative(root, realpathSync(word));
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) continue;
    folders.add(join(root, rel.split(sep)[0]!));
  }
  return [...folders];
}
