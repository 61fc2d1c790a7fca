// Where skill folders are looked for (issue #34): the user's folders other agents use too, this
// app's own, the `skillRoots` setting, and the project's folders under the working folder, which
// load only once the user trusted them (as project tool folders: anyone who can write the project
// could plant a skill).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Settings } from '../../../../shared/settings.ts';
import { isTrustedProjectFolder } from '../discovery/tool-roots.ts';
import type { SkillOrigin } from './skill-types.ts';

export interface SkillRoot extends SkillOrigin {
  /** A project folder the user has not approved: reported, never read. */
  untrusted?: boolean;
}

export interface SkillRootsWhere {
  home: string;
  cwd: string;
  userHome?: string;
}

export type SkillRootsSettings = Partial<Pick<Settings, 'skillRoots' | 'trustedProjectFolders'>>;

/** The folder skills are installed into (`skills install`) and "New tool" writes to. */
export const installedSkillsDir = (home: string): string => join(home, 'skills');

export function skillRootsFromSettings(settings: SkillRootsSettings, where: SkillRootsWhere): SkillRoot[] {
  const userHome = where.userHome ?? homedir();
  const expand = (p: string) => (p === '~' ? userHome : p.startsWith('~/') ? join(userHome, p.slice(2)) : p);
  const roots: SkillRoot[] = [];
  const seen = new Set<string>();
  const add = (root: SkillRoot) => {
    if (seen.has(root.root)) return;
    seen.add(root.root);
    roots.push(root);
  };
  add({ kind: 'user', label: 'tooldesk', root: installedSkillsDir(where.home) });
  add({ kind: 'user', label: 'agents', root: join(userHome, '.agents', 'skills') });
  add({ kind: 'user', label: 'claude', root: join(userHome, '.claude', 'skills') });
  add({ kind: 'user', label: 'codex', root: join(userHome, '.codex', 'skills') });
  for (const p of settings.skillRoots ?? []) add({ kind: 'custom', label: 'custom', root: resolve(where.cwd, expand(p)) });
  for (const sub of ['.agents', '.claude']) {
    const root = resolve(where.cwd, sub, 'skills');
    add({ kind: 'project', label: 'project', root, ...(isTrustedProjectFolder(settings, root) ? {} : { untrusted: true }) });
  }
  return roots;
}

/** The settings keys the roots depend on. */
export const skillRootsKey = (s: SkillRootsSettings & Pick<Settings, 'workingDir'>): string => JSON.stringify([s.skillRoots ?? [], s.trustedProjectFolders ?? [], s.workingDir]);
