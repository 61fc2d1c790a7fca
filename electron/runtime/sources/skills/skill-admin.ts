// What the CLI and the app do to skills beyond reading them: check (flags and diagnostics),
// install (staged, shown, then moved in), remove (installed ones only), dependencies.
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Diagnostic } from '../../../../shared/tools.ts';
import { stageSkill, type StagedSkill } from './install-skill.ts';
import { declaredDeps, installSkillDeps, type DepsOutcome } from './skill-deps.ts';
import { skillEnvDir } from './skill-env.ts';
import { newSkill } from './new-skill.ts';
import { scanSkillFlags, type SkillFlag } from './skill-flags.ts';
import { installedSkillsDir } from './skill-roots.ts';
import type { SkillSource } from './skill-source.ts';
import type { Skill } from './skill-types.ts';

export interface SkillCheck {
  skill: Skill;
  flags: SkillFlag[];
  diagnostics: Diagnostic[];
}

export interface SkillAdmin {
  check(name?: string): SkillCheck[] | { error: string };
  stage(path: string): Promise<StagedSkill>;
  remove(name: string): { removed: string } | { error: string };
  declaredDeps(skill: Skill): string[];
  /** A new skill from the template in TOOLDESK_HOME/skills (throws naming the problem). */
  create(name: string): { dir: string; files: string[] };
  installDeps(skill: Skill, packages: string[], signal?: AbortSignal): Promise<DepsOutcome>;
}

export function skillAdmin(source: SkillSource): SkillAdmin {
  const home = source.home;
  return {
    check(name) {
      let skills = source.skills();
      if (name) {
        const found = source.find(name);
        if ('error' in found) return found;
        skills = [found];
      }
      return skills
        .filter((s) => s.dir)
        .map((skill) => ({ skill, flags: scanSkillFlags(skill), diagnostics: source.diagnostics().filter((d) => d.file === skill.file || d.file === skill.dir) }));
    },
    stage: (path) => stageSkill(home, resolve(path)),
    remove(name) {
      const found = source.find(name);
      if ('error' in found) return found;
      if (dirname(found.dir) !== installedSkillsDir(home)) {
        return { error: `skill ${found.id} was not installed by Tooldesk (it is in ${found.origin.root}): delete ${found.dir} yourself, or switch it off with \`tooldesk skills disable ${found.id}\`` };
      }
      rmSync(found.dir, { recursive: true, force: true });
      rmSync(skillEnvDir(home, found.id), { recursive: true, force: true });
      source.approvals.revoke(found.id);
      source.load();
      return { removed: found.dir };
    },
    declaredDeps: (skill) => declaredDeps(skill),
    create(name) {
      const made = newSkill(home, name);
      source.load();
      return made;
    },
    installDeps: (skill, packages, signal) => installSkillDeps(source.context(), skill, packages, signal),
  };
}
