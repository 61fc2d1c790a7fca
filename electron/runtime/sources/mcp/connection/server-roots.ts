// The roots a server is offered (`roots/list`): what the user gave it, never more. A `roots`
// setting says it outright; otherwise a stdio server's roots are the existing folders its
// arguments name plus its `writable` folders. No roots means the capability is not declared, so
// a server keeps the folders of its own configuration (server-filesystem *replaces* its
// command-line folders with the client's roots). The working folder is a root only when named.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveEnvRefs } from '../config/config-variables.ts';
import { argFolders, expandHome } from '../config/launchers.ts';
import type { McpServer } from '../config/server-config.ts';

export function serverRoots(server: McpServer): string[] {
  if (server.roots) return unique(server.roots.map((r) => resolve(expandHome(r))));
  if (server.kind !== 'stdio') return [];
  const writable = server.writable.map((w) => resolve(expandHome(w))).filter((w) => existsSync(w));
  return unique([...argFolders(server.args), ...writable]);
}

/** Where a stdio server runs: its `cwd` (its `${env:…}` resolved), else the working folder. */
export function serverCwd(cwd: string | undefined, workingDir: string | undefined): string {
  return expandHome(cwd || workingDir || homedir());
}

/**
 * The folders a server resolves a relative path against, as the rules must (Tool.relativeTo):
 * its cwd, then its roots (server-filesystem resolves against its allowed folders). A remote
 * server's folders are not ours to know: none.
 */
export function serverRelativeTo(server: McpServer, workingDir: string | undefined, env: NodeJS.ProcessEnv): string[] {
  if (server.kind !== 'stdio') return [];
  // The cwd as the next start will resolve it (a variable that is not set: that start fails).
  const cwd = server.cwd ? resolveEnvRefs(server.cwd, env) : undefined;
  return unique([resolve(serverCwd(cwd && 'value' in cwd ? cwd.value : server.cwd, workingDir)), ...serverRoots(server)]);
}

/** `roots/list`'s answer. */
export function rootsList(server: McpServer): { roots: Array<{ uri: string; name: string }> } {
  return { roots: serverRoots(server).map((path) => ({ uri: pathToFileURL(path).toString(), name: path })) };
}

const unique = (list: string[]) => [...new Set(list)];
