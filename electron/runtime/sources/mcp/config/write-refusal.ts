// A write the sandbox refused, turned into a question the user can answer: which path a server
// failed to write (EROFS / EACCES in its error text, as Node and Python word them) and the
// closest folder worth allowing — the path's own folder, never `/`, the home or a folder holding
// it, a credential folder, or a path Tooldesk protects.
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { SENSITIVE_HOME_ENTRIES } from '../../../runner/sensitive-paths.ts';

/** Node: `EROFS: read-only file system, open '/p'`; Python: `[Errno 30] Read-only file system: '/p'`. */
const REFUSED = /(?:EROFS|EACCES|Read-only file system|Permission denied)[^'"\n]*?['"](\/[^'"\n]+)['"]/i;

export interface WriteRefusal {
  /** The path the server could not write. */
  path: string;
  /** The folder to offer: "Allow writing to FOLDER for this server". */
  folder: string;
}

const isDir = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};
const inside = (parent: string, child: string) => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** A write the sandbox refused that no answer can allow: the path and why, for the error. */
export interface NeverWritable {
  path: string;
  never: string;
}

/**
 * The refusal in `text`: the folder to propose, or why none can be (a file directly in the home,
 * a credential folder, TOOLDESK_HOME or a tool folder); undefined when the text names no refused
 * path. `isProtected`: paths the app keeps read-only whatever the user says.
 */
export function findWriteRefusal(text: string, isProtected: (path: string) => boolean = () => false, home = homedir()): WriteRefusal | NeverWritable | undefined {
  const path = REFUSED.exec(text)?.[1];
  if (!path) return undefined;
  let folder = isDir(path) ? resolve(path) : dirname(resolve(path));
  while (!isDir(folder) && folder !== dirname(folder)) folder = dirname(folder);
  const never = neverWritableReason(folder, isProtected, home);
  return never ? { path, never } : { path, folder };
}

/** Why `folder` can never be made writable for one server; undefined when it can. */
export function neverWritableReason(folder: string, isProtected: (path: string) => boolean = () => false, home = homedir()): string | undefined {
  const userHome = resolve(home);
  const where = resolve(folder);
  if (where === '/') return 'it is at the top of the file system, and opening that would open everything';
  if (inside(where, userHome)) return `${where === userHome ? 'it is your home folder itself' : `${where} holds your whole home`}, and opening that would open every file in it`;
  const credentials = SENSITIVE_HOME_ENTRIES.find((entry) => inside(join(userHome, entry), where));
  if (credentials) return `${where} is inside ~/${credentials}, a credential folder no tool or server may write`;
  if (isProtected(where)) return `${where} is inside Tooldesk's own folder (TOOLDESK_HOME) or a tool folder, which every tool and server sees read-only, whatever the settings say`;
  return undefined;
}

/** The sentence added to the call's error. */
export function allowWriteText(server: string, refusal: WriteRefusal): string {
  return `The sandbox kept "${server}" from writing ${refusal.path}. Allow writing to ${refusal.folder} for this server: \`tooldesk mcp allow-write ${server} ${refusal.folder}\` (or "Allow writing" in Settings → MCP servers), then call it again.`;
}

/** The sentence added when no folder can be allowed: why, and what to do instead. */
export function cannotAllowWriteText(server: string, refusal: NeverWritable): string {
  return (
    `The sandbox kept "${server}" from writing ${refusal.path}, and that cannot be allowed: ${refusal.never}. ` +
    `Give the server a file or folder of its own to write to (in its arguments or environment, e.g. a data folder under ~/.local/share/${server}/), ` +
    `then allow writing to that folder with \`tooldesk mcp allow-write ${server} FOLDER\`.`
  );
}
