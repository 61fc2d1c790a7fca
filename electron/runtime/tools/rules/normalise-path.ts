// The forms a path-like argument takes, so a rule sees the file a tool would really open: each
// way a tool may read it (path-readings.ts: `~` forms, whitespace, relative to where the tool
// runs), then for each the folded form (`.` and `..` applied first, as tools that normalise do),
// its realpath, and the path the kernel reaches (kernel-path.ts: symlinks followed before `..`).
// `~/projects/../.ssh`, `~//.ssh` and a link into `~/.ssh` all end up as the real `~/.ssh`.
import { join, resolve } from 'node:path';
import { isPerProcessPath, kernelPath, realOf } from './kernel-path.ts';
import { readingsOf, trimSpace, type PathContext } from './path-readings.ts';

export type { PathContext } from './path-readings.ts';
export { realOfLongestExisting } from './kernel-path.ts';

/** A value's forms with repeats left out: what a deny or ask rule tests, and what an allow rule does. */
export interface ValueForms {
  /** As written, then every form of every reading. */
  generous: string[];
  /** Every form of every reading. */
  strict: string[];
  /**
   * Where some reading leads cannot be known here (`/proc/self/…`, `/dev/fd/…`, a symlink loop,
   * a folder we may not search, no known folder for a relative path): deny and ask rules on the
   * value match it, allow rules do not.
   */
  unresolvable: boolean;
}

export function valueForms(value: string, context: PathContext): ValueForms {
  const readings = readingsOf(value, context);
  const strict: string[] = [];
  let unresolvable = readings.unresolvable;
  for (const raw of readings.paths) {
    const lexical = isFolded(raw) ? raw : resolve(raw);
    add(strict, lexical);
    if (isPerProcessPath(lexical)) {
      unresolvable = true;
      continue;
    }
    const real = realOf(lexical);
    add(strict, real.path);
    const kernel = kernelPath(raw, lexical, real);
    if (kernel === undefined) unresolvable = true;
    else add(strict, kernel);
  }
  return { strict, generous: strict.includes(value) ? strict : [value, ...strict], unresolvable };
}

/** No `.`, `..`, doubled or trailing slash: resolve() would give it back unchanged (and costs more than this). */
const UNFOLDED = /\/\/|\/\.\.?(?:\/|$)|.\/$/;

function isFolded(path: string): boolean {
  return !UNFOLDED.test(path);
}

function add(list: string[], form: string): void {
  if (!list.includes(form)) list.push(form);
}

/** A value that looks like a file path (absolute, `~…`, `./`, `../`, a `file:` URL), also with whitespace around it. */
export function looksLikePath(value: string): boolean {
  const c = value.charCodeAt(0);
  // `/`, `~`, `.`, `f`, a drive letter: anything else that is no space cannot start a path.
  if (c !== 47 && c !== 126 && c !== 46 && c !== 102 && !(value[1] === ':') && !(c <= 32 || c >= 127)) return false;
  const v = c <= 32 || c >= 127 ? trimSpace(value) : value;
  return v.startsWith('/') || v.startsWith('~') || v.startsWith('./') || v.startsWith('../') || v === '..' || v.startsWith('file:') || (v[1] === ':' && /^[A-Za-z]:[\\/]/.test(v));
}

export function expandHome(value: string, home: string): string {
  if (value === '~') return home;
  if (value.startsWith('~/')) return join(home, value.slice(2));
  return value;
}
