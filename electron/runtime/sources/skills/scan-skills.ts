// Reads every skill root: each folder holding a SKILL.md is a skill. Nothing is executed; a broken
// skill is a diagnostic and the others load. Same-named skills of two origins are both kept,
// each qualified by its origin (`claude:pdf`, `agents:pdf`), so none shadows the other.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UNTRUSTED_FOLDER_CODE, type Diagnostic } from '../../../../shared/tools.ts';
import { parseSkill } from './parse-skill.ts';
import { listSkillFiles, MAX_SKILL_FILES } from './skill-files.ts';
import type { SkillRoot } from './skill-roots.ts';
import type { Skill, SkillLoadResult } from './skill-types.ts';

/** A SKILL.md bigger than this is not read (a diagnostic says so). */
export const MAX_SKILL_MD_BYTES = 512 * 1024;

/** Parsed SKILL.md files by path, reused while size and mtime stay the same. */
export type SkillParseCache = Map<string, { key: string; parsed: ReturnType<typeof parseSkill> }>;

export function scanSkillRoots(roots: readonly SkillRoot[], cache: SkillParseCache = new Map()): SkillLoadResult {
  const skills: Skill[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const root of roots) {
    if (!existsSync(root.root)) continue;
    if (root.untrusted) {
      diagnostics.push({
        severity: 'warning',
        file: root.root,
        message: 'untrusted project skill folder: its skills are not loaded until you trust it',
        hint: `Run \`tooldesk tools trust ${root.root}\` after reviewing it.`,
        code: UNTRUSTED_FOLDER_CODE,
      });
      continue;
    }
    let names: string[];
    try {
      names = readdirSync(root.root).sort();
    } catch (error) {
      diagnostics.push({ severity: 'warning', file: root.root, message: `cannot read the skill folder: ${(error as Error).message}`, code: 'skill' });
      continue;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const dir = join(root.root, name);
      const file = join(dir, 'SKILL.md');
      let size: number;
      let key: string;
      try {
        const stats = statSync(file);
        if (!stats.isFile()) continue;
        size = stats.size;
        key = `${stats.size}:${stats.mtimeMs}:${name}`;
      } catch {
        continue; // a folder without SKILL.md is not a skill
      }
      if (size > MAX_SKILL_MD_BYTES) {
        diagnostics.push({ severity: 'error', file, message: `SKILL.md is ${size} bytes (at most ${MAX_SKILL_MD_BYTES}): not read`, code: 'skill' });
        continue;
      }
      let parsed = cache.get(file)?.key === key ? cache.get(file)!.parsed : undefined;
      if (!parsed) {
        parsed = parseSkill(readFileSync(file, 'utf8'), file, name);
        cache.set(file, { key, parsed });
      }
      diagnostics.push(...parsed.diagnostics);
      if (!parsed.skill) continue;
      const listing = listSkillFiles(dir);
      if (listing.cut) diagnostics.push({ severity: 'warning', file: dir, message: `more than ${MAX_SKILL_FILES} files (or deeper than 10 folders): the listing is cut`, code: 'skill' });
      skills.push({ id: parsed.skill.frontMatter.name, ...parsed.skill, dir, file, origin: { kind: root.kind, label: root.label, root: root.root }, files: listing.files });
    }
  }
  return { skills: qualifyClashes(skills), diagnostics };
}

/** Skills sharing a name get `label:name` ids (and `label2:name` when the labels clash too). */
export function qualifyClashes(skills: Skill[]): Skill[] {
  const count = new Map<string, number>();
  for (const s of skills) count.set(s.frontMatter.name, (count.get(s.frontMatter.name) ?? 0) + 1);
  const taken = new Set<string>();
  return skills.map((s) => {
    if (count.get(s.frontMatter.name) === 1) {
      taken.add(s.frontMatter.name);
      return s;
    }
    let id = `${s.origin.label}:${s.frontMatter.name}`;
    for (let n = 2; taken.has(id); n++) id = `${s.origin.label}${n}:${s.frontMatter.name}`;
    taken.add(id);
    return { ...s, id };
  });
}
