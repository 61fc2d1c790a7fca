// The ordered list of tool roots: the user's (settings, default TOOLDESK_HOME/tools) first, then
// the other projects' folders that exist and are switched on (DESIGN.md, Tool sources).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Settings, WellKnownRoot } from '../../../../shared/settings.ts';
import type { ToolFormat } from '../../../../shared/tools.ts';
import { appPaths } from '../../paths.ts';

export interface ToolRoot {
  path: string;
  /** User roots win over well-known ones on a name clash (they come first). */
  kind: 'user' | 'well-known';
  wellKnown?: WellKnownRoot;
  /** Formats this root may hold (Agenvoy's folder holds script tools, omp's hold modules). Absent = all. */
  formats?: Exclude<ToolFormat, 'builtin'>[];
}

export interface WellKnownRootSpec {
  key: WellKnownRoot;
  path: (where: { userHome: string; cwd: string }) => string;
  formats: Exclude<ToolFormat, 'builtin'>[];
}

export const WELL_KNOWN_ROOTS: readonly WellKnownRootSpec[] = [
  { key: 'agenvoyHome', path: ({ userHome }) => join(userHome, '.config', 'agenvoy', 'tools', 'script'), formats: ['script'] },
  { key: 'agenvoyProject', path: ({ cwd }) => join(cwd, '.config', 'agenvoy', 'tools', 'script'), formats: ['script'] },
  { key: 'ompHome', path: ({ userHome }) => join(userHome, '.omp', 'agent', 'tools'), formats: ['module'] },
  { key: 'ompProject', path: ({ cwd }) => join(cwd, '.omp', 'tools'), formats: ['module'] },
];

export interface RootsWhere {
  home: string;
  /** The project folder for project-relative well-known roots (the app's working folder). */
  cwd: string;
  userHome?: string;
  /** Only roots that exist are returned for well-known folders; injectable for tests. */
  exists?: (path: string) => boolean;
}

export function toolRootsFromSettings(settings: Pick<Settings, 'toolRoots' | 'wellKnownRoots'>, where: RootsWhere): ToolRoot[] {
  const userHome = where.userHome ?? homedir();
  const expand = (p: string) => (p === '~' ? userHome : p.startsWith('~/') ? join(userHome, p.slice(2)) : p);
  const configured = settings.toolRoots.length > 0 ? settings.toolRoots : [appPaths(where.home).toolsDir];
  const roots: ToolRoot[] = [];
  const seen = new Set<string>();
  const add = (root: ToolRoot) => {
    if (seen.has(root.path)) return;
    seen.add(root.path);
    roots.push(root);
  };
  for (const path of configured) add({ path: resolve(where.cwd, expand(path)), kind: 'user' });
  for (const spec of WELL_KNOWN_ROOTS) {
    if (settings.wellKnownRoots?.[spec.key] === false) continue;
    const path = resolve(spec.path({ userHome, cwd: where.cwd }));
    if (where.exists && !where.exists(path)) continue;
    add({ path, kind: 'well-known', wellKnown: spec.key, formats: spec.formats });
  }
  return roots;
}

export function asToolRoot(root: string | ToolRoot): ToolRoot {
  return typeof root === 'string' ? { path: root, kind: 'user' } : root;
}
