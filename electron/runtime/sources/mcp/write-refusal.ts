// A write the sandbox refused, turned into a question the user can answer: which path a server
// failed to write (EROFS / EACCES in its error text, as Node and Python word them) and the
// closest folder worth allowing — the path's own folder, never `/`, the home or a folder holding
// it, a credential folder, or a path Tooldesk protects.
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { SENSITIVE_HOME_ENTRIES } from '../../runner/sensitive-paths.ts';

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

/**
 * The refusal in `text`, with the folder to propose; undefined when the text names none or no
 * folder is sensible to open up. `isProtected`: paths the app keeps read-only whatever the user says.
 */
export function findWriteRefusal(text: string, isProtected: (path: string) => boolean = () => false, home = homedir()): WriteRefusal | undefined {
  const path = REFUSED.exec(text)?.[1];
  if (!path) return undefined;
  let folder = isDir(path) ? resolve(path) : dirname(resolve(path));
  while (!isDir(folder) && folder !== dirname(folder)) folder = dirname(folder);
  const userHome = resolve(home);
  if (folder === '/' || inside(folder, userHome)) return undefined;
  if (SENSITIVE_HOME_ENTRIES.some((entry) => inside(join(userHome, entry), folder))) return undefined;
  if (isProtected(folder)) return undefined;
  return { path, folder };
}

/** The sentence added to the call's error. */
export function allowWriteText(server: string, refusal: WriteRefusal): string {
  return `The sandbox kept "${server}" from writing ${refusal.path}. Allow writing to ${refusal.folder} for this server: \`tooldesk mcp allow-write ${server} ${refusal.folder}\` (or "Allow writing" in Settings → MCP servers), then call it again.`;
}
