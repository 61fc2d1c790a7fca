// Every way a tool may read a path argument, as absolute paths not yet folded. Tools differ:
// Python's os.path.expanduser turns `~//x` into `$HOME//x` and `~user/x` into that user's home
// (an unknown user leaves the text alone: a relative path), Node's untildify takes `~\x`, the
// reference filesystem server path.join()s `~/x`, PowerShell reads `\` as a separator, many tools
// strip surrounding whitespace, and a `file:` URL is percent-decoded. A relative path means the
// folder the tool runs in, which depends on its format (Tool.relativeTo). The rules test every
// reading: a deny matches if any does, an allow only if all do.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface PathContext {
  home: string;
  /**
   * The folders a relative path may be resolved against, where the tool runs first. Empty: no
   * one knows (a remote server's folder), so a relative path cannot be resolved.
   */
  bases: readonly string[];
}

export interface Readings {
  paths: string[];
  /** Some reading has no place here (a relative path with no known folder). */
  unresolvable: boolean;
}

/** What Python's str.strip() and JavaScript's trim() take off, together. */
const SPACE = /^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/g;
const SPACE_AT_ENDS = /^[\s\x1c-\x1f\x85]|[\s\x1c-\x1f\x85]$/;

export function trimSpace(value: string): string {
  return SPACE_AT_ENDS.test(value) ? value.replace(SPACE, '') : value;
}

export function readingsOf(value: string, context: PathContext): Readings {
  const out: Readings = { paths: [], unresolvable: false };
  const trimmed = trimSpace(value);
  read(value, context, out);
  if (trimmed !== value && trimmed !== '') read(trimmed, context, out);
  return out;
}

function read(text: string, context: PathContext, out: Readings): void {
  readOne(text, context, out);
  if (text.includes('\\')) readOne(text.replaceAll('\\', '/'), context, out);
}

function readOne(text: string, context: PathContext, out: Readings): void {
  if (text.startsWith('file:')) {
    const path = fromFileUrl(text);
    if (path !== undefined) add(out, path);
    // Tools that only cut the scheme off (`file://~/x`, an undecoded `%2e%2e`) read the rest.
    const cut = text.replace(/^file:(?:\/\/)?/, '');
    if (cut !== path && cut !== '') readOne(cut, context, out);
    return;
  }
  if (text.startsWith('/')) return add(out, text);
  if (text.startsWith('~')) {
    const slash = text.indexOf('/');
    const name = slash === -1 ? text.slice(1) : text.slice(1, slash);
    const rest = slash === -1 ? '' : text.slice(slash);
    // `~`, `~/x`, `~//x` (expanduser keeps the slashes; the kernel folds them) and `~\x` (untildify).
    if (name === '') return add(out, `${context.home}${rest}`);
    if (name.startsWith('\\')) add(out, `${context.home}${text.slice(1)}`);
    else if (name === '+') for (const base of context.bases) add(out, `${base}${rest}`);
    else {
      const home = userHome(name);
      if (home !== undefined) add(out, `${home}${rest}`);
    }
    // Tools that do not expand this form read a folder named `~name` where they run.
  }
  if (context.bases.length === 0) out.unresolvable = true;
  for (const base of context.bases) add(out, `${base}/${text}`);
}

function add(out: Readings, path: string): void {
  if (!out.paths.includes(path)) out.paths.push(path);
}

function fromFileUrl(text: string): string | undefined {
  try {
    return fileURLToPath(text);
  } catch {
    return undefined;
  }
}

/** A user's home as the password database says (what expanduser reads for `~name`). */
let passwd: { mtimeMs: number; homes: Map<string, string> } | undefined;

function userHome(name: string): string | undefined {
  try {
    const { mtimeMs } = statSync('/etc/passwd');
    if (passwd?.mtimeMs !== mtimeMs) {
      const homes = new Map<string, string>();
      for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
        const fields = line.split(':');
        if (fields.length >= 7 && fields[0] && fields[5]) homes.set(fields[0], fields[5]);
      }
      passwd = { mtimeMs, homes };
    }
    return passwd.homes.get(name)?.replace(/\/+$/, '') || (passwd.homes.has(name) ? '/' : undefined);
  } catch {
    return undefined;
  }
}
