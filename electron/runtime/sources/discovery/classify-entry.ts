// Decides which tool format a root entry is, by its shape (DESIGN.md, Tool sources).
import { existsSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { SourceEntry } from '../types.ts';

const MODULE_EXTENSIONS = ['.ts', '.js', '.mjs'];

/** Returns the entry's format, or null when it is skipped (caches, hidden, `_` prefixed, other files). */
export function classifyEntry(root: string, path: string, isDirectory: boolean): SourceEntry | null {
  const name = basename(path);
  if (name.startsWith('.') || name.startsWith('_') || name === 'node_modules') return null;
  if (isDirectory) {
    const has = (file: string) => existsSync(join(path, file));
    if (has('definition.json') && has('execution.py')) return { root, path, format: 'three-layer' };
    if (has('tool.json') && (has('script.js') || has('script.py'))) return { root, path, format: 'script' };
    if (['index.ts', 'index.js', 'index.mjs', 'package.json'].some(has)) return { root, path, format: 'module' };
    // Half-made tools: their loader says what is missing instead of the folder vanishing silently.
    if (has('definition.json')) return { root, path, format: 'three-layer' };
    if (has('tool.json')) return { root, path, format: 'script' };
    return null;
  }
  // Caches, type declarations and declarative metadata (.md/.json) are never code.
  if (name.endsWith('.tool.json') || name.endsWith('.d.ts')) return null;
  const ext = extname(name);
  if (ext === '.py') return { root, path, format: 'python' };
  if (ext === '.ps1') return { root, path, format: 'powershell' };
  if (MODULE_EXTENSIONS.includes(ext)) return { root, path, format: 'module' };
  return null;
}
