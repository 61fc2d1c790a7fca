// Smart loading shared by Python and PowerShell modules: a fresh `{stem}.tool.json` is used as is
// (no process at all); every stale script is parsed in one batch, then its cache is written.
import { statSync, type Stats } from 'node:fs';
import { TOO_LARGE_HINT, tooLargeReason } from '../files/read-text-file.ts';
import type { Diagnostic } from '../../../../shared/tools.ts';
import type { CacheSpec, ModuleCacheFile } from './cache.ts';
import { lookupModuleCache, saveModuleCache } from './cache.ts';
import type { SourceEntry } from '../types.ts';

/** A batch parse: one result per path, or one failure for the whole batch. */
export type BatchParse<M> = { ok: true; modules: Map<string, M> } | { ok: false; diagnostic: Diagnostic };

export interface ModuleCacheLoader<M> {
  spec(scriptPath: string): CacheSpec;
  /** Parses all stale scripts together. Contract: never throws. */
  parse(paths: string[]): Promise<BatchParse<M>>;
  toCacheFile(module: M, scriptPath: string, stats: Stats): ModuleCacheFile;
}

/** The cache of every entry that has one (fresh or just written), keyed by script path. */
export async function loadModuleCaches<M>(
  entries: SourceEntry[],
  loader: ModuleCacheLoader<M>,
  /** settings.limits.toolSourceMaxBytes */
  maxSourceBytes: number,
): Promise<{ caches: Map<string, ModuleCacheFile>; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const caches = new Map<string, ModuleCacheFile>();
  const stale: { entry: SourceEntry; stats: Stats }[] = [];
  for (const entry of entries) {
    let stats: Stats;
    try {
      stats = statSync(entry.path); // synchronous for the reason lookupModuleCache gives
    } catch (error) {
      diagnostics.push({ severity: 'error', file: entry.path, message: `Cannot read: ${(error as Error).message}`, code: 'unreadable' });
      continue;
    }
    // A source no real tool reaches is not handed to the parser (a 1 GiB module cost 2.1 GB).
    if (stats.size > maxSourceBytes) {
      diagnostics.push({ severity: 'error', file: entry.path, message: `Cannot load: ${tooLargeReason(stats.size, maxSourceBytes)}`, hint: TOO_LARGE_HINT, code: 'unreadable' });
      continue;
    }
    const lookup = await lookupModuleCache(entry.path, stats, loader.spec(entry.path));
    if (lookup.fresh) caches.set(entry.path, lookup.cache);
    else {
      diagnostics.push(...lookup.diagnostics);
      stale.push({ entry, stats });
    }
  }
  if (stale.length === 0) return { caches, diagnostics };
  const parsed = await loader.parse(stale.map((s) => s.entry.path));
  if (!parsed.ok) {
    for (const { entry } of stale) diagnostics.push({ ...parsed.diagnostic, file: entry.path });
    return { caches, diagnostics };
  }
  for (const { entry, stats } of stale) {
    const module = parsed.modules.get(entry.path);
    if (module === undefined) continue;
    const cache = loader.toCacheFile(module, entry.path, stats);
    const saved = await saveModuleCache(entry.path, cache, loader.spec(entry.path));
    if ('diagnostic' in saved) diagnostics.push(saved.diagnostic);
    caches.set(entry.path, cache);
  }
  return { caches, diagnostics };
}
