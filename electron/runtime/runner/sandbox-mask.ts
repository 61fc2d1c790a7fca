// What a sandbox hides (the "mask"): the home's credential folders and histories, agent and
// docker sockets, Tooldesk's transcripts, and secret-looking files (.env, *.pem, *.key…) in every
// folder the tool can see bound. Computed from the disk as it is now: the cold path computes it
// per run; a long-lived helper (the warm fork-server, a module tool host) computes it per call
// too, so a file that appeared after the helper started is hidden from the next call (see
// maskAdditions). Cheap when repeated: the secret-file scans are cached by folder mtime.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { isInside } from './protected-binds.ts';
import { existingHomeEntries, findSecretFiles, HOME_SCAN_BUDGET, SENSITIVE_HOME_ENTRIES } from './sensitive-paths.ts';

export interface MaskLayout {
  homeDir: string;
  toolDir: string;
  /** The writable folders bound (home when allowed, tool folder when writable, working folder…). */
  writable: string[];
  allowHomeWrite: boolean;
  /** The working folder is the home (read-only then): its secret files are hidden too. */
  homeIsWorkingFolder: boolean;
  /** More home entries to hide (relative to the home). */
  hidePaths?: string[];
  sessionsDir?: string;
}

export interface SandboxMask {
  /** Existing folders to cover with an empty read-only tmpfs (none inside another). */
  dirs: string[];
  /** Existing files (or sockets) to cover with /dev/null (none inside a hidden folder). */
  files: string[];
  /** Where the search for secret files was cut short. */
  secretScanNotes: string[];
}

/** The mask for `l` as the disk is now. Never throws. */
export function computeMask(l: MaskLayout): SandboxMask {
  const bound = [l.toolDir, ...l.writable];
  // Inside the sandbox /tmp is an empty tmpfs: only what is bound again is visible under it.
  const visible = (p: string) => bound.some((b) => isInside(p, b)) || !isInside(p, '/tmp');
  const hideDirs: string[] = [];
  const hideFiles: string[] = [];
  const secretScanNotes: string[] = [];
  const hide = (p: string, dir: boolean) => {
    if (!visible(p) || hideDirs.includes(p) || hideFiles.includes(p)) return;
    (dir ? hideDirs : hideFiles).push(p);
  };
  for (const entry of existingHomeEntries(l.homeDir, [...SENSITIVE_HOME_ENTRIES, ...(l.hidePaths ?? [])])) hide(entry.real, entry.dir);
  for (const p of extraSensitivePaths(l.sessionsDir)) hide(p.real, p.dir);
  for (const root of [...new Set(bound)]) {
    const scan = findSecretFiles(root);
    for (const f of scan.files) hide(f, false);
    if (scan.incomplete) secretScanNotes.push(`Only part of ${root} was searched for secret files (.env, *.pem, *.key…); files deeper or beyond the first 20000 entries are not hidden.`);
  }
  // The working folder is the home (the default): what the README promises for the working
  // folder holds there too, within a smaller bound (README, Security: the home scan).
  if (l.homeIsWorkingFolder && !l.allowHomeWrite) for (const f of findSecretFiles(l.homeDir, HOME_SCAN_BUDGET).files) hide(f, false);
  // A mask inside a hidden folder has nothing to cover (and bwrap cannot create it there).
  const files = hideFiles.filter((f) => !hideDirs.some((d) => f !== d && isInside(f, d)));
  const dirs = hideDirs.filter((d) => !hideDirs.some((o) => o !== d && isInside(d, o)));
  return { dirs, files, secretScanNotes };
}

/**
 * What `now` hides that `before` (the helper's mask when it started) does not: the paths a call
 * must cover itself. Paths inside a folder `before` hid already are covered.
 */
export function maskAdditions(before: Pick<SandboxMask, 'dirs' | 'files'>, now: Pick<SandboxMask, 'dirs' | 'files'>): { dirs: string[]; files: string[] } {
  const covered = (p: string) => before.dirs.some((d) => isInside(p, d)) || before.files.includes(p);
  return { dirs: now.dirs.filter((d) => !covered(d)), files: now.files.filter((f) => !covered(f)) };
}

/** Outside the home: the user's session bus and keyring sockets, the docker socket, our own sessions. */
function extraSensitivePaths(sessionsDir: string | undefined): Array<{ real: string; dir: boolean }> {
  const uid = process.getuid?.();
  const candidates = [
    process.env.XDG_RUNTIME_DIR || (uid !== undefined ? `/run/user/${uid}` : ''),
    '/run/docker.sock',
    '/var/run/docker.sock',
    sessionsDir ?? '',
  ];
  const found: Array<{ real: string; dir: boolean }> = [];
  for (const c of candidates) {
    if (!c || !existsSync(c)) continue;
    try {
      const r = realpathSync(c);
      if (!found.some((f) => f.real === r)) found.push({ real: r, dir: statSync(r).isDirectory() });
    } catch {
      // vanished
    }
  }
  return found;
}
