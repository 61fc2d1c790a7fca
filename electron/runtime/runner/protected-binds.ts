// Which binds keep the protected paths (tool roots, tool folders, TOOLDESK_HOME, the other
// projects' tool folders) out of a tool's reach, whatever their nesting with the writable folders.
// bubblewrap applies binds in order and a later bind covers an earlier one, so the caller emits:
// writable binds, then `pinned`, then `guarded`, then `readOnly`.
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';

export interface ProtectedPath {
  path: string;
  /** When missing: cover its first missing folder with an empty read-only one, so no tool creates it. */
  guardMissing: boolean;
}

export interface ProtectedBinds {
  /**
   * Folders between a writable bind and a protected path, bound onto themselves (still writable):
   * a mount point cannot be renamed or removed, so a tool cannot move a protected folder's parent
   * away and put a forged one in its place.
   */
  pinned: string[];
  /** First missing folder of a protected path: an empty read-only tmpfs (bwrap creates it empty). */
  guarded: string[];
  /** Bound read-only after every writable bind. */
  readOnly: string[];
  /** Writable folders that lie inside a protected path and therefore stay read-only. */
  demoted: Array<{ writable: string; inside: string }>;
}

export function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The real path of `path`, or of its nearest existing ancestor plus the first missing name. */
function resolveProtected(path: string): { real: string; exists: boolean } | null {
  if (!isAbsolute(path)) return null;
  if (existsSync(path)) {
    try {
      return { real: realpathSync(path), exists: true };
    } catch {
      return null;
    }
  }
  let missing = path;
  let parent = dirname(path);
  while (!existsSync(parent)) {
    if (dirname(parent) === parent) return null;
    missing = parent;
    parent = dirname(parent);
  }
  try {
    return { real: join(realpathSync(parent), basename(missing)), exists: false };
  } catch {
    return null;
  }
}

function canWrite(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Folders strictly between `outer` and `inner` (inner inside outer), shallowest first. */
function between(outer: string, inner: string): string[] {
  const parts = relative(outer, inner).split(sep).filter(Boolean);
  const out: string[] = [];
  for (let i = 1; i < parts.length; i++) out.push(join(outer, ...parts.slice(0, i)));
  return out;
}

/**
 * `writable` are real, existing paths the sandbox binds writable; `protect` are paths (real or
 * not, existing or not) no tool may write. Pure apart from reading the filesystem's shape.
 */
export function planProtectedBinds(writable: string[], protect: ProtectedPath[]): ProtectedBinds {
  const pinned = new Set<string>();
  const guarded = new Set<string>();
  const readOnly = new Set<string>();
  const demoted: ProtectedBinds['demoted'] = [];
  const pinBetween = (target: string) => {
    // The outermost writable folder: every folder from it down to the target could be renamed.
    const outer = writable.filter((w) => isInside(target, w)).sort((a, b) => a.length - b.length)[0];
    if (!outer) return false;
    for (const folder of between(outer, target)) if (!writable.includes(folder)) pinned.add(folder);
    return true;
  };
  for (const item of protect) {
    const resolved = resolveProtected(item.path);
    if (!resolved) continue;
    if (!resolved.exists) {
      // A parent we cannot write is one no tool (same user) can create in either; bwrap would fail there.
      if (item.guardMissing && canWrite(dirname(resolved.real)) && pinBetween(resolved.real)) guarded.add(resolved.real);
      continue;
    }
    if (pinBetween(resolved.real)) {
      readOnly.add(resolved.real);
      for (const w of writable) if (isInside(w, resolved.real)) demoted.push({ writable: w, inside: resolved.real });
      continue;
    }
    // Not inside a writable folder: already read-only, unless a writable folder lies inside it.
    for (const w of writable) {
      if (!isInside(w, resolved.real) || readOnly.has(w)) continue;
      readOnly.add(w);
      demoted.push({ writable: w, inside: resolved.real });
    }
  }
  const depth = (p: string) => p.split(sep).length;
  for (const p of readOnly) pinned.delete(p);
  return {
    pinned: [...pinned].sort((a, b) => depth(a) - depth(b)),
    guarded: [...guarded].filter((g) => ![...readOnly].some((r) => isInside(g, r))),
    readOnly: [...readOnly].sort((a, b) => depth(a) - depth(b)),
    demoted,
  };
}
