// The forms a path-like argument takes, so a rule sees the file a tool would really open:
// `~` expanded, relative paths resolved against the tools' working folder, `.` and `..` folded
// (lexical), then symlinks resolved on the longest existing part (real). `~/projects/../.ssh`
// and a link into `~/.ssh` both end up as the real `~/.ssh`.
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export interface PathContext {
  home: string;
  /** Where relative paths are resolved (the tools' working folder). */
  base: string;
}

export interface PathForms {
  lexical: string;
  real: string;
}

/** A value's forms with repeats left out: what a deny or ask rule tests, and what an allow rule does. */
export interface ValueForms {
  /** As written, folded, real. */
  generous: string[];
  /** Folded and real. */
  strict: string[];
}

export function valueForms(value: string, context: PathContext): ValueForms {
  const { lexical, real } = pathForms(value, context);
  const strict = lexical === real ? [lexical] : [lexical, real];
  return { strict, generous: value === lexical ? strict : [value, ...strict] };
}

/** A value that looks like a file path (absolute, `~`, `./`, `../`). */
export function looksLikePath(value: string): boolean {
  return value.startsWith('/') || value === '~' || value.startsWith('~/') || value.startsWith('./') || value.startsWith('../') || value === '..' || (value[1] === ':' && /^[A-Za-z]:[\\/]/.test(value));
}

export function expandHome(value: string, home: string): string {
  if (value === '~') return home;
  if (value.startsWith('~/')) return join(home, value.slice(2));
  return value;
}

export function pathForms(value: string, context: PathContext): PathForms {
  const path = value.startsWith('file://') ? value.slice(7) : value;
  // One resolve: `~/x` against the home, a relative path against the working folder.
  const lexical = path === '~' ? resolve(context.home) : path.startsWith('~/') ? resolve(context.home, path.slice(2)) : resolve(context.base, path);
  return { lexical, real: realOfLongestExisting(lexical) };
}

/** realpath of the deepest part that exists, with the rest appended (a file about to be created). */
export function realOfLongestExisting(path: string): string {
  const rest: string[] = [];
  let current = path;
  for (let depth = 0; depth < 4096; depth++) {
    try {
      const real = realpathSync.native(current);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch {
      const parent = dirname(current);
      if (parent === current) break;
      rest.push(basename(current));
      current = parent;
    }
  }
  return path;
}
