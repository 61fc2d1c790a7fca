// The host cannot write the app's cache (its filesystem is read-only): it reads transpiled
// modules from the cache folder the app filled (transpile-ahead.ts) and transpiles a miss in
// memory for this load alone. It hands nothing back: the cache is the app's alone to write.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Transform = (opts: { source: string; filename?: string; ts?: boolean }) => { code: string };

/** Bump when the transform's options change: old entries are then simply not found. */
const VERSION = 'esbuild-cjs-1';

export function cacheKey(filename: string, source: string): string {
  return createHash('sha1').update(`${VERSION}\0${filename}\0`).update(source).digest('hex');
}

export function cachedTransform(transform: Transform, cacheDir: string | null, store?: (key: string, code: string) => void): Transform {
  return (opts) => {
    const filename = opts.filename ?? 'module.ts';
    const key = cacheKey(filename, opts.source);
    if (cacheDir) {
      try {
        return { code: readFileSync(join(cacheDir, `${key}.cjs`), 'utf8') };
      } catch {
        // not cached yet
      }
    }
    const result = transform(opts);
    store?.(key, result.code);
    return result;
  };
}
