// The ordered list of tool roots: the user's (settings, default TOOLDESK_HOME/tools) first, then
// the other projects' folders that exist and are switched on (DESIGN.md, Tool sources). A project
// folder (found under the working folder) is trusted only once the user approved its path.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
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
  /**
   * A project folder the user has not approved: listed as "untrusted project folder — review",
   * never read (no entry, no code) until its path is in `trustedProjectFolders`.
   */
  untrusted?: boolean;
}

export interface WellKnownRootSpec {
  key: WellKnownRoot;
  path: (where: { userHome: string; cwd: string }) => string;
  formats: Exclude<ToolFormat, 'builtin'>[];
  /** `project` folders come with whatever folder the app works in, so they need the user's approval. */
  scope: 'home' | 'project';
}

export const WELL_KNOWN_ROOTS: readonly WellKnownRootSpec[] = [
  { key: 'agenvoyHome', path: ({ userHome }) => join(userHome, '.config', 'agenvoy', 'tools', 'script'), formats: ['script'], scope: 'home' },
  { key: 'agenvoyProject', path: ({ cwd }) => join(cwd, '.config', 'agenvoy', 'tools', 'script'), formats: ['script'], scope: 'project' },
  { key: 'ompHome', path: ({ userHome }) => join(userHome, '.omp', 'agent', 'tools'), formats: ['module'], scope: 'home' },
  { key: 'ompProject', path: ({ cwd }) => join(cwd, '.omp', 'tools'), formats: ['module'], scope: 'project' },
];

export interface RootsWhere {
  home: string;
  /** The project folder for project-relative well-known roots (the app's working folder). */
  cwd: string;
  userHome?: string;
  /** Only roots that exist are returned for well-known folders; injectable for tests. */
  exists?: (path: string) => boolean;
}

export type RootsSettings = Pick<Settings, 'toolRoots' | 'wellKnownRoots'> & Partial<Pick<Settings, 'trustedProjectFolders'>>;

/** The settings keys the list of roots depends on: a change to any of them means new roots. */
export const rootsKey = (s: RootsSettings & Pick<Settings, 'workingDir'>): string =>
  JSON.stringify([s.toolRoots, s.wellKnownRoots, s.workingDir, s.trustedProjectFolders ?? []]);

/**
 * Whether the user approved this project folder (paths compared resolved, trailing slash ignored).
 * A relative entry approves nothing: it would otherwise mean the same folder in every project.
 */
export function isTrustedProjectFolder(settings: Partial<Pick<Settings, 'trustedProjectFolders'>>, path: string): boolean {
  const wanted = resolve(path);
  return (settings.trustedProjectFolders ?? []).some((p) => isAbsolute(p) && resolve(p) === wanted);
}

/** The list with `path` approved (added once) or its approval revoked. */
export function withProjectTrust(list: readonly string[], path: string, trusted: boolean): string[] {
  const wanted = resolve(path);
  const others = list.filter((p) => resolve(p) !== wanted);
  return trusted ? [...others, wanted] : others;
}

/** The roots the user named in settings (absolute), else the default `TOOLDESK_HOME/tools`. */
function configuredRoots(settings: RootsSettings, where: RootsWhere): string[] {
  const userHome = where.userHome ?? homedir();
  const expand = (p: string) => (p === '~' ? userHome : p.startsWith('~/') ? join(userHome, p.slice(2)) : p);
  const configured = settings.toolRoots.length > 0 ? settings.toolRoots : [appPaths(where.home).toolsDir];
  return configured.map((p) => resolve(where.cwd, expand(p)));
}

export function toolRootsFromSettings(settings: RootsSettings, where: RootsWhere): ToolRoot[] {
  const userHome = where.userHome ?? homedir();
  const roots: ToolRoot[] = [];
  const seen = new Set<string>();
  const add = (root: ToolRoot) => {
    if (seen.has(root.path)) return;
    seen.add(root.path);
    roots.push(root);
  };
  for (const path of configuredRoots(settings, where)) add({ path, kind: 'user' });
  for (const spec of WELL_KNOWN_ROOTS) {
    if (settings.wellKnownRoots?.[spec.key] === false) continue;
    const path = resolve(spec.path({ userHome, cwd: where.cwd }));
    if (where.exists && !where.exists(path)) continue;
    const untrusted = spec.scope === 'project' && !isTrustedProjectFolder(settings, path);
    add({ path, kind: 'well-known', wellKnown: spec.key, formats: spec.formats, ...(untrusted ? { untrusted: true } : {}) });
  }
  return roots;
}

/**
 * Every folder that holds or could hold tools, for the sandbox to keep read-only: the configured
 * and default roots, every well-known folder whether switched on or not (it might be switched on
 * later), the roots actually loaded (`--root`, a project folder of the CLI's cwd), and every
 * approved project folder. An approved one counts as a tool root (kept even while missing, so a
 * tool cannot recreate it after it was deleted); an unapproved one only while it exists.
 */
export function protectedToolFolders(settings: RootsSettings, where: RootsWhere, loaded: readonly ToolRoot[] = []): { toolRoots: string[]; projectToolFolders: string[] } {
  const userHome = where.userHome ?? homedir();
  const approved = (settings.trustedProjectFolders ?? []).filter(isAbsolute).map((p) => resolve(p));
  const toolRoots = new Set<string>([appPaths(where.home).toolsDir, ...configuredRoots(settings, where), ...approved]);
  const projectToolFolders = new Set<string>();
  const add = (path: string, project: boolean) => (project && !isTrustedProjectFolder(settings, path) ? projectToolFolders : toolRoots).add(path);
  for (const spec of WELL_KNOWN_ROOTS) add(resolve(spec.path({ userHome, cwd: where.cwd })), spec.scope === 'project');
  for (const root of loaded) add(root.path, WELL_KNOWN_ROOTS.find((s) => s.key === root.wellKnown)?.scope === 'project');
  return { toolRoots: [...toolRoots], projectToolFolders: [...projectToolFolders] };
}

export function asToolRoot(root: string | ToolRoot): ToolRoot {
  return typeof root === 'string' ? { path: root, kind: 'user' } : root;
}
