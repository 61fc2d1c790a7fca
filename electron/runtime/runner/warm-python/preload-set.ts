// What a tools folder's fork-server may import before it forks its first call (warm dependency
// imports). The app names the files and the folders whose modules must never enter a process
// shared by calls; resources/python/preload.py reads the files' top-level imports with `ast` (no
// user code runs), checks where each module resolves, tries each in a throwaway child and imports
// those that qualify. Contract of the parts here: pure functions of their inputs (and a listing
// of the folder for `folderPreloadSet`), never throwing.
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { RunSpec } from '../types.ts';

/** Files read for one fork-server at most: parsing is paid on its start, before its first call. */
export const MAX_PRELOAD_FILES = 256;

/** Folders calls can always write, whatever the sandbox: a module there is never preloaded. */
const SCRATCH_FOLDERS = ['/tmp', '/var/tmp', '/dev/shm'];

export interface PreloadOptions {
  /** Off: every call imports its dependencies itself (default on). */
  enabled?: boolean;
  /** An import that takes longer than this is left out, ms (default 2000). */
  maxMs?: number;
}

/** What the fork-server is told (zygote.py's `--preload` line; preload.py's `plan`). */
export interface PreloadRequest {
  files: string[];
  forbid: string[];
  maxMs: number;
}

/** What it did: the modules imported, and why each other one was left out. */
export interface PreloadOutcome {
  preloaded: string[];
  leftOut: Array<{ name: string; why: string }>;
}

/**
 * The preload set of a list of script files, for a run hint's `preload` (the skills' hook: pass a
 * skill's scripts): the absolute `.py` files, once each, in a stable order, at most
 * MAX_PRELOAD_FILES. The modules themselves are found by the fork-server's parser.
 */
export function pythonPreloadSet(files: readonly string[]): string[] {
  const set = new Set(files.filter((f) => isAbsolute(f) && f.endsWith('.py')).map((f) => resolve(f)));
  return [...set].sort().slice(0, MAX_PRELOAD_FILES);
}

const listings = new WeakMap<object, Map<string, { mtimeMs: number; files: string[] }>>();

/**
 * The preload set of the module tools kept loose in `folder` (its `*.py` not starting with `_`, as
 * discovery classifies them): every tool of the folder passes the same set, so they share a
 * fork-server. Listed again only when the folder changed; `cache` (the source context) owns the memo.
 */
export function folderPreloadSet(folder: string, cache: object): string[] {
  let memo = listings.get(cache);
  if (!memo) listings.set(cache, (memo = new Map()));
  let mtimeMs: number;
  try {
    mtimeMs = statSync(folder).mtimeMs;
  } catch {
    return [];
  }
  const known = memo.get(folder);
  if (known && known.mtimeMs === mtimeMs) return known.files;
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((n) => n.endsWith('.py') && !n.startsWith('_') && !n.startsWith('.'));
  } catch {
    names = [];
  }
  const files = pythonPreloadSet(names.map((n) => join(folder, n)));
  memo.set(folder, { mtimeMs, files });
  return files;
}

/**
 * Every folder whose modules must stay out of the fork-server of `spec`: the tool's folder, the
 * folders of the preload files, the tool roots, and every folder the call can write (its working
 * folder unless that holds the home and home writes are off, its writable folders, the home when
 * home writes are on, the scratch folders). The call's working folder counts too: code read from
 * stdin imports from it first.
 */
export function preloadForbid(spec: RunSpec, files: readonly string[]): string[] {
  const box = spec.sandbox;
  const home = box?.homeDir ?? process.env.HOME ?? homedir();
  const holdsHome = (dir: string) => home === dir || home.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
  const workDir = box?.workDir && (box.allowHomeWrite || !holdsHome(box.workDir)) ? [box.workDir] : [];
  const cwd = box?.allowHomeWrite || !holdsHome(spec.cwd) ? [spec.cwd] : [];
  const all = [
    ...(box ? [box.toolDir] : []),
    ...files.map((f) => dirname(f)),
    ...cwd,
    ...workDir,
    ...(box?.writableDirs ?? []),
    ...(box?.allowHomeWrite ? [home] : []),
    ...(box?.protect?.toolRoots ?? []),
    ...(box?.protect?.projectToolFolders ?? []),
    ...SCRATCH_FOLDERS,
  ];
  return [...new Set(all)];
}

/** The request for `spec`'s fork-server, or undefined when there is nothing to preload. */
export function preloadRequest(spec: RunSpec, options: PreloadOptions | undefined): PreloadRequest | undefined {
  const files = spec.python?.preload;
  if (options?.enabled === false || !files?.length) return undefined;
  return { files: pythonPreloadSet(files), forbid: preloadForbid(spec, files), maxMs: options?.maxMs ?? 2000 };
}
