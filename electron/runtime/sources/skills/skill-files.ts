// A skill's files: listed without following symlinks (one that points out of the folder must not
// pull outside files into the listing or the digest), bounded, and hashed on demand. The digest
// set (SHA-256 per file, SEP-2640's rule) is what "always allow" of a skill is bound to.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Beyond this many files a skill's listing is cut (and a diagnostic says so). */
export const MAX_SKILL_FILES = 2000;
const MAX_DEPTH = 10;
/** Folders that are tooling, not the skill: never listed, hashed or served. */
const SKIPPED = new Set(['.git', 'node_modules', '__pycache__', '.venv', '.DS_Store']);

/** Relative `/`-separated paths of the regular files and symlinks under `dir`, sorted. */
export function listSkillFiles(dir: string): { files: string[]; cut: boolean } {
  const files: string[] = [];
  let cut = false;
  const walk = (abs: string, rel: string, depth: number) => {
    let entries;
    try {
      // Dirents carry the type: no lstat per file (a warm listing of 200 skills stays cheap).
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (SKIPPED.has(entry.name)) continue;
      if (files.length >= MAX_SKILL_FILES) {
        cut = true;
        return;
      }
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) walk(join(abs, entry.name), childRel, depth + 1);
        else cut = true;
      } else if (entry.isFile() || entry.isSymbolicLink()) files.push(childRel);
    }
  };
  walk(dir, '', 0);
  return { files: files.sort(), cut };
}

/** Hashes by path, kept while size and mtime stay the same (a warm digest reads no file). */
export class SkillDigests {
  readonly #seen = new Map<string, { key: string; hash: string }>();

  /** SHA-256 (hex) of each file; a symlink is hashed as its target path, never followed. */
  digestSet(dir: string, files?: readonly string[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const rel of files ?? listSkillFiles(dir).files) {
      const hash = this.#hash(join(dir, rel));
      if (hash) out[rel] = hash;
    }
    return out;
  }

  #hash(path: string): string | undefined {
    try {
      const stats = lstatSync(path);
      const key = `${stats.size}:${stats.mtimeMs}:${stats.isSymbolicLink() ? 'l' : 'f'}`;
      const known = this.#seen.get(path);
      if (known?.key === key) return known.hash;
      const content = stats.isSymbolicLink() ? Buffer.from(`symlink:${readlinkSync(path)}`) : readFileSync(path);
      const hash = createHash('sha256').update(content).digest('hex');
      this.#seen.set(path, { key, hash });
      return hash;
    } catch {
      return undefined;
    }
  }
}

/** Which files differ between two digest sets, in words for a card: `changed a.py, added b.py, removed c.md`. */
export function digestChanges(before: Record<string, string>, now: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [file, hash] of Object.entries(now)) {
    if (before[file] === undefined) out.push(`added ${file}`);
    else if (before[file] !== hash) out.push(`changed ${file}`);
  }
  for (const file of Object.keys(before)) if (now[file] === undefined) out.push(`removed ${file}`);
  return out.sort((a, b) => a.slice(a.indexOf(' ')).localeCompare(b.slice(b.indexOf(' '))));
}
