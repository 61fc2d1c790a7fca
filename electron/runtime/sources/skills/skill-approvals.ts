// "Always allow" of a skill's scripts, bound to the digest set of every file of the skill
// (SEP-2640's rule, applied to local skills too): a file changed, added or removed since, and the
// next call asks again, naming what changed. Kept in TOOLDESK_HOME/approved-skills.json, which no
// sandboxed process can write (the home is read-only to tools).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { digestChanges, type SkillDigests } from './skill-files.ts';
import type { Skill } from './skill-types.ts';

interface Bound {
  dir: string;
  digests: Record<string, string>;
}

export type SkillApprovalState = { state: 'held' } | { state: 'changed'; changes: string[] } | { state: 'none' };

export class SkillApprovals {
  readonly #file: string;
  readonly #digests: SkillDigests;
  readonly #log: (message: string) => void;
  #bound: Record<string, Bound> | undefined;

  constructor(home: string, digests: SkillDigests, log: (message: string) => void = () => {}) {
    this.#file = join(home, 'approved-skills.json');
    this.#digests = digests;
    this.#log = log;
  }

  /** Whether an "always" given for `skill` still holds for its files as they are now. */
  check(skill: Skill): SkillApprovalState {
    const bound = this.#load()[skill.id];
    if (!bound) return { state: 'none' };
    if (bound.dir !== skill.dir) return { state: 'changed', changes: [`moved from ${bound.dir}`] };
    const changes = digestChanges(bound.digests, this.#digests.digestSet(skill.dir));
    return changes.length ? { state: 'changed', changes } : { state: 'held' };
  }

  bind(skill: Skill): void {
    this.#load()[skill.id] = { dir: skill.dir, digests: this.#digests.digestSet(skill.dir) };
    this.#save();
  }

  revoke(id: string): void {
    if (!this.#load()[id]) return;
    delete this.#load()[id];
    this.#save();
  }

  #load(): Record<string, Bound> {
    if (this.#bound) return this.#bound;
    try {
      const parsed = JSON.parse(readFileSync(this.#file, 'utf8')) as unknown;
      this.#bound = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, Bound>) : {};
    } catch {
      this.#bound = {};
    }
    return this.#bound;
  }

  #save(): void {
    try {
      mkdirSync(dirname(this.#file), { recursive: true });
      writeFileSync(this.#file, `${JSON.stringify(this.#bound, null, 2)}\n`, { mode: 0o600 });
    } catch (error) {
      this.#log(`Recording the skill approval in ${this.#file} failed: ${(error as Error).message}`);
    }
  }
}
