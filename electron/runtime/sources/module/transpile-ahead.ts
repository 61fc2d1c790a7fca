// The app, not the tool host, writes the transpile cache: before a module loads, the app reads
// its sources itself, transpiles them (esbuild, which runs no tool code) and stores each under
// the content hash of the source it read. The host only reads the cache (read-only in its
// sandbox); a file it finds no entry for (edited meanwhile, imported from elsewhere) it
// transpiles in memory for that load alone. Nothing the host says can put code in the cache.
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { readTextFileSync } from '../files/read-text-file.ts';
import { cacheKey } from './host/transform-cache.ts';
import { moduleSourceFiles } from './imports.ts';
import { fastModuleTransform } from './transform.ts';
import { storeTransformed } from './transform-store.ts';
import type { SourceEntry } from '../types.ts';

const TRANSPILED = new Set(['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs']);
/** A source bigger than this is left to the host (it is refused there by the size limit first). */
const MAX_AHEAD_BYTES = 5 * 1024 * 1024;

let transform: ReturnType<typeof fastModuleTransform> | null | undefined;

/**
 * Caches the transpiled sources of `entry` in `cacheDir`. Contract: never throws; a file that
 * cannot be read or transpiled is skipped (the host then reports its error as it loads it).
 */
export function transpileAhead(cacheDir: string | null, entry: SourceEntry, isDirectory: boolean, maxSourceBytes?: number): void {
  if (!cacheDir) return;
  for (const file of moduleSourceFiles(entry.path, isDirectory, maxSourceBytes)) {
    if (!TRANSPILED.has(extname(file))) continue;
    try {
      // One open per file, checked on the open file: bounded, and a FIFO never blocks the app.
      const source = readTextFileSync(file, MAX_AHEAD_BYTES);
      const key = cacheKey(file, source);
      if (existsSync(join(cacheDir, `${key}.cjs`))) continue;
      transform ??= fastModuleTransform() ?? null;
      if (!transform) return;
      storeTransformed(cacheDir, key, transform({ source, filename: file }).code);
    } catch {
      // unreadable, too large or a syntax error: the host reports it with the load
    }
  }
}
