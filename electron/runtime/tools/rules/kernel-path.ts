// Where an absolute path leads when a process opens it: the kernel follows each symlink as it
// meets it and only then applies `..` (`pub/link/../x` is the link target's parent's `x`, not
// `pub/x`). Beyond the first missing component the rest is folded lexically (a folder that
// will be created is no link). Some paths mean something else in the tool's process than in
// ours — `/proc/self`, `/proc/<pid>/cwd|root|fd…`, `/dev/fd` — and a loop or a folder we may
// not search hides where a path leads: those are unresolvable (`undefined`), which the rules
// read as "could be anything".
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Symlinks followed before giving up, as Linux's ELOOP bound. */
const MAX_LINKS = 40;

/** A prefix whose target depends on the process that opens it. */
const PER_PROCESS = /^\/(?:proc\/(?:self|thread-self|\d+\/(?:task\/\d+\/)?(?:cwd|root|fd|fdinfo|exe|map_files))|dev\/fd)(?:\/|$)/;

export function isPerProcessPath(path: string): boolean {
  return (path.startsWith('/proc/') || path.startsWith('/dev/fd')) && PER_PROCESS.test(path);
}

/**
 * `raw` is absolute and not folded; `lexical` is its resolve() and `real` what realOf() found
 * for that. The cheap case (no `..`, the whole path exists and holds no symlink) needs no walk.
 */
export function kernelPath(raw: string, lexical: string, real: RealPath): string | undefined {
  if (isPerProcessPath(lexical)) return undefined;
  if (real.whole && real.path === lexical && !hasDotDot(raw)) return lexical;
  return walk(raw);
}

/** Follows the path one component at a time, as open(2) would. */
function walk(raw: string): string | undefined {
  const done: string[] = [];
  let pending = raw.split('/');
  let links = 0;
  // How many components were resolved when the first missing one came: a `..` back to there
  // leaves the part that does not exist (yet), and what follows is looked up again.
  let missingAt = -1;
  for (let i = 0; i < pending.length; i++) {
    const part = pending[i]!;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      done.pop();
      if (missingAt !== -1 && done.length <= missingAt) missingAt = -1;
      continue;
    }
    done.push(part);
    if (missingAt !== -1) continue;
    const current = `/${done.join('/')}`;
    if (isPerProcessPath(current)) return undefined;
    let stat;
    try {
      stat = lstatSync(current, { throwIfNoEntry: false });
    } catch {
      // EACCES, ENOTDIR, ENAMETOOLONG: we cannot tell where the tool's open would lead.
      return undefined;
    }
    if (!stat) {
      missingAt = done.length - 1;
      continue;
    }
    if (!stat.isSymbolicLink()) continue;
    if (++links > MAX_LINKS) return undefined;
    let target: string;
    try {
      target = readlinkSync(current);
    } catch {
      return undefined;
    }
    done.pop();
    if (target.startsWith('/')) done.length = 0;
    pending = [...target.split('/'), ...pending.slice(i + 1)];
    i = -1;
  }
  return `/${done.join('/')}`;
}

function hasDotDot(path: string): boolean {
  return path.includes('..') && path.split('/').includes('..');
}

export interface RealPath {
  path: string;
  /** The whole path exists (nothing was appended to a real parent). */
  whole: boolean;
}

/** realpath of the deepest part that exists, with the rest appended (a file about to be created). */
export function realOfLongestExisting(path: string): string {
  return realOf(path).path;
}

export function realOf(path: string): RealPath {
  const rest: string[] = [];
  let current = path;
  for (let depth = 0; depth < 4096; depth++) {
    try {
      const real = realpathSync.native(current);
      return rest.length ? { path: join(real, ...rest.reverse()), whole: false } : { path: real, whole: true };
    } catch {
      const parent = dirname(current);
      if (parent === current) break;
      rest.push(basename(current));
      current = parent;
    }
  }
  return { path, whole: false };
}
