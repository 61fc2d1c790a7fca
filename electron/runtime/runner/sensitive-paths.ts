// What the sandbox hides: credential folders under the home, shell histories, and secret-looking
// files (by name pattern) inside the folders a tool can write to or works in.
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Relative to the user's home. Seed 001's list (.ssh .aws .gcloud) and more. */
export const SENSITIVE_HOME_ENTRIES: readonly string[] = [
  '.ssh', '.aws', '.gcloud', '.config/gcloud', '.gnupg', '.docker', '.kube', '.netrc', '.git-credentials',
  '.azure', '.config/gh', '.npmrc', '.pypirc', '.password-store', '.local/share/keyrings',
  // Shell and REPL histories: full of pasted tokens.
  '.bash_history', '.zsh_history', '.sh_history', '.history', '.ash_history', '.local/share/fish/fish_history',
  '.python_history', '.node_repl_history', '.psql_history', '.mysql_history', '.sqlite_history', '.lesshst',
];

/** `.env`, `.env.*`, `*.pem`, `*.key`, `*.p12`, `*.pfx`. */
export function isSecretFileName(name: string): boolean {
  return name === '.env' || name.startsWith('.env.') || /\.(pem|key|p12|pfx)$/i.test(name);
}

/** Folders not worth walking: huge, and not where people keep their own secret files. */
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__', '.venv', 'venv', '.cache', '.npm', '.cargo', '.rustup', '.pyenv', '.local', 'proc', 'sys']);

export interface ScanBudget {
  maxDepth: number;
  maxEntries: number;
}

export const DEFAULT_SCAN_BUDGET: ScanBudget = { maxDepth: 6, maxEntries: 20_000 };

/**
 * The home when it is the working folder (the default): its top level and two levels of folders
 * below it (`~/.env`, `~/keys/id.pem`, `~/work/app/.env`), bounded so a large home costs a few ms.
 */
export const HOME_SCAN_BUDGET: ScanBudget = { maxDepth: 2, maxEntries: 5_000 };

export interface SecretFileScan {
  /** Real paths of matching files (symlinks resolved), in walk order. */
  files: string[];
  /** True when the budget ran out before the whole tree was seen. */
  incomplete: boolean;
}

interface CachedScan extends SecretFileScan {
  /** Every folder read, with its mtime: the scan is reused while none changed. */
  dirs: Array<[string, number]>;
  budget: ScanBudget;
}

const scanCache = new Map<string, CachedScan>();

/**
 * Finds secret-looking files under `root` within `budget`. Cached per root and revalidated by
 * the mtimes of the folders it read (adding or removing a file changes its folder's mtime), so a
 * tool run costs a few stat calls, not a tree walk. Never throws.
 */
export function findSecretFiles(root: string, budget: ScanBudget = DEFAULT_SCAN_BUDGET): SecretFileScan {
  const cached = scanCache.get(root);
  if (cached && cached.budget.maxDepth === budget.maxDepth && cached.budget.maxEntries === budget.maxEntries && stillFresh(cached.dirs)) {
    return { files: cached.files, incomplete: cached.incomplete };
  }
  const scan = walk(root, budget);
  scanCache.set(root, scan);
  return { files: scan.files, incomplete: scan.incomplete };
}

/** For tests: forget cached scans. */
export function clearSecretFileCache(): void {
  scanCache.clear();
}

function stillFresh(dirs: Array<[string, number]>): boolean {
  for (const [dir, mtime] of dirs) {
    try {
      if (statSync(dir).mtimeMs !== mtime) return false;
    } catch {
      return false;
    }
  }
  return true;
}

function walk(root: string, budget: ScanBudget): CachedScan {
  const files: string[] = [];
  const dirs: Array<[string, number]> = [];
  let seen = 0;
  let incomplete = false;
  const queue: Array<[string, number]> = [[root, 0]];
  // Breadth-first so a budget cut keeps the shallow files, where secrets usually sit.
  while (queue.length > 0) {
    const [dir, depth] = queue.shift()!;
    let names: import('node:fs').Dirent[];
    try {
      dirs.push([dir, statSync(dir).mtimeMs]);
      names = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const d of names) {
      if (++seen > budget.maxEntries) {
        incomplete = true;
        return { files, dirs, incomplete, budget };
      }
      const full = join(dir, d.name);
      if (isSecretFileName(d.name) && !d.isDirectory()) {
        const real = realFile(full);
        if (real) files.push(real);
      } else if (d.isDirectory() && !SKIP_DIRS.has(d.name)) {
        if (depth + 1 <= budget.maxDepth) queue.push([full, depth + 1]);
        else incomplete = true;
      }
    }
  }
  return { files, dirs, incomplete, budget };
}

/** The real path of a regular file (or a symlink to one); undefined for anything else. */
function realFile(path: string): string | undefined {
  try {
    const real = realpathSync(path);
    return lstatSync(real).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** The home entries that exist, as [path as seen, real path, isDirectory]. */
export function existingHomeEntries(home: string, entries: readonly string[] = SENSITIVE_HOME_ENTRIES): Array<{ path: string; real: string; dir: boolean }> {
  const found: Array<{ path: string; real: string; dir: boolean }> = [];
  for (const rel of entries) {
    const path = join(home, rel);
    try {
      const real = realpathSync(path);
      found.push({ path, real, dir: statSync(real).isDirectory() });
    } catch {
      // absent (or a dangling link): nothing to hide
    }
  }
  return found;
}
