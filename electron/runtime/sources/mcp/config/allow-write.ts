// "Allow writing to FOLDER for this server": the settings entry with FOLDER added to its
// `writable` folders. A server started through a package launcher (npx, uvx, …) writes to the
// launcher's cache, which is writable only while `writable` is empty: that cache is kept in the
// list too, so allowing one folder does not break the start.
import { resolve } from 'node:path';
import { expandHome, launcherCacheOf } from './launchers.ts';
import { neverWritableReason } from './write-refusal.ts';

/** What can never be opened for a server: the app's own and the tool folders (`isProtected`), credentials, the home. */
export interface WriteGuard {
  isProtected?: (path: string) => boolean;
  home?: string;
}

export function entryAllowingWrite(entry: Record<string, unknown>, folder: string, guard: WriteGuard = {}): { entry: Record<string, unknown>; added: string[] } | { error: string } {
  if (typeof entry.command !== 'string') return { error: 'only a local (stdio) server writes files; a remote server has no local process' };
  const path = resolve(expandHome(folder));
  // Saying "may now write" while the sandbox still binds the folder read-only would be a lie.
  const never = neverWritableReason(path, guard.isProtected, guard.home);
  if (never) return { error: `writing to ${path} cannot be allowed: ${never}. Choose a folder of the server's own outside it` };
  const writable = Array.isArray(entry.writable) ? entry.writable.filter((w): w is string => typeof w === 'string') : [];
  const added: string[] = [];
  if (writable.length === 0 && entry.sandbox !== 'off') {
    const cache = launcherCacheOf(entry.command);
    if (cache) added.push(cache);
  }
  if (!writable.map((w) => resolve(expandHome(w))).includes(path)) added.push(path);
  return { entry: { ...entry, writable: [...writable, ...added.filter((a) => !writable.includes(a))] }, added };
}
