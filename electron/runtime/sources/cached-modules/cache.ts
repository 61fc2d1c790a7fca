// The `{name}.tool.json` smart-load cache of Python/PowerShell modules (seed 000's format plus a
// `tooldesk` block). Kept beside the script; in TOOLDESK_HOME/cache/modules/<mirrored folder>/
// when the script's folder is read-only.
import { statSync, type Stats } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join, parse, resolve } from 'node:path';
import type { DeclaredReturnType, Diagnostic, ToolFunctionSpec } from '../../../../shared/tools.ts';
import { fileError } from '../../base/file-error.ts';
import { writeFileAtomic } from '../files/atomic-write.ts';
import { normalizeForeignCache } from './normalize-cache.ts';
import { isPlainObject, readJsonFileSync } from '../files/read-json-file.ts';

export type ModuleType = 'PythonModule' | 'PowerShellModule';

/** One tool in the cache: an OpenAI function spec plus the flat extras sy-f-misc also writes. */
export interface CachedTool {
  type: 'function';
  function: ToolFunctionSpec;
  executionPolicy?: string;
  resultApprovalPolicy?: string;
  /** Legacy sy-f-misc keys, read from caches written by it. */
  permissionLevel?: string;
  requireExecutionApproval?: boolean;
  requireResultApproval?: boolean;
  declaredReturnType?: DeclaredReturnType;
  /** 1-based line of the definition. */
  line?: number;
  /** Python: the function has a `.format` attribute (applied by run_tool.py). */
  hasFormat?: boolean;
  /** PowerShell: the `Format-<Fn>` function that formats this tool's result. */
  formatter?: string;
  /** Python `fn.timeout = 60` / PowerShell TOOL_CONFIG `"timeout": 60` (seconds), in ms. */
  timeoutMs?: number;
}

export type CachedDiagnostic = Omit<Diagnostic, 'file'>;

export interface ModuleCacheFile {
  type: ModuleType;
  name: string;
  /** The script, relative to the cache file when beside it, else absolute. */
  scriptPath: string;
  tools: CachedTool[];
  rulePrompt?: string;
  defaultPermissions?: Record<string, unknown>;
  /** Absent in caches written by sy-f-misc: those are fresh when newer than the script (the seed's rule). */
  tooldesk?: {
    parserVersion: string;
    scriptMtimeMs: number;
    scriptSize: number;
    secrets?: string[];
    diagnostics?: CachedDiagnostic[];
    /** The script could not be parsed (syntax error, not UTF-8): cached so a warm load stays warm. */
    error?: CachedDiagnostic;
  };
}

export interface CacheSpec {
  type: ModuleType;
  /** Cache file name, e.g. `weather.tool.json`. */
  fileName: string;
  parserVersion: string;
  /** TOOLDESK_HOME/cache. */
  cacheDir: string;
}

export type CacheLookup =
  | { fresh: true; cache: ModuleCacheFile; file: string }
  | { fresh: false; diagnostics: Diagnostic[] };

/** Where the cache of `scriptPath` may live: beside it first, then the mirrored fallback. */
export function cacheLocations(scriptPath: string, spec: CacheSpec): [string, string] {
  const folder = resolve(dirname(scriptPath));
  const { root } = parse(folder);
  // `/home/u/tools` → cache/modules/home/u/tools; `C:\tools` → cache/modules/C/tools. A resolved
  // absolute path has no `..`, so the mirror cannot escape the cache folder.
  const drive = root.replace(/[:\\/]/g, '');
  return [join(folder, spec.fileName), join(spec.cacheDir, 'modules', drive, folder.slice(root.length), spec.fileName)];
}

export async function lookupModuleCache(scriptPath: string, script: Stats, spec: CacheSpec): Promise<CacheLookup> {
  const diagnostics: Diagnostic[] = [];
  for (const file of cacheLocations(scriptPath, spec)) {
    // Read synchronously: a warm start reads hundreds of these, and a thread-pool round trip per
    // stat and read made 4 000 cached tools cost 160 ms instead of what the reading costs.
    const fileStat = statSync(file, { throwIfNoEntry: false });
    if (!fileStat) continue;
    const read = readJsonFileSync(file);
    if (!read.ok) {
      diagnostics.push({ ...read.diagnostic, severity: 'warning', message: `Corrupt tool cache, re-parsing the script: ${read.diagnostic.message}`, hint: 'Nothing to do: the cache is rewritten. Delete the file if this repeats.', code: 'corrupt-cache' });
      continue;
    }
    const cache = normalizeForeignCache(read.value);
    if (!isModuleCacheFile(cache)) {
      // A cache of the other format with the same stem, or something else: not ours to judge,
      // unless it claims to be ours and is malformed.
      if (isPlainObject(cache) && cache.type === spec.type) {
        diagnostics.push({ severity: 'warning', file, message: 'Corrupt tool cache (missing "tools" or "name"), re-parsing the script', hint: 'Nothing to do: the cache is rewritten.', code: 'corrupt-cache' });
      }
      continue;
    }
    if (cache.type !== spec.type) continue;
    if (isFresh(cache, script, fileStat, spec.parserVersion)) return { fresh: true, cache, file };
  }
  return { fresh: false, diagnostics };
}

function isFresh(cache: ModuleCacheFile, script: Stats, cacheFile: Stats, parserVersion: string): boolean {
  const meta = cache.tooldesk;
  if (!meta) return script.mtimeMs <= cacheFile.mtimeMs;
  return meta.parserVersion === parserVersion && meta.scriptMtimeMs === script.mtimeMs && meta.scriptSize === script.size;
}

function isModuleCacheFile(value: unknown): value is ModuleCacheFile {
  if (!isPlainObject(value)) return false;
  if (value.type !== 'PythonModule' && value.type !== 'PowerShellModule') return false;
  if (typeof value.name !== 'string' || !Array.isArray(value.tools)) return false;
  return value.tools.every((t) => isPlainObject(t) && isPlainObject(t.function) && typeof t.function.name === 'string');
}

const READ_ONLY_CODES = new Set(['EACCES', 'EPERM', 'EROFS']);

/** Writes the cache beside the script, or in the mirrored fallback when that folder is read-only. */
export async function saveModuleCache(scriptPath: string, cache: ModuleCacheFile, spec: CacheSpec): Promise<{ file: string } | { diagnostic: Diagnostic }> {
  const [beside, fallback] = cacheLocations(scriptPath, spec);
  try {
    await writeAtomically(beside, { ...cache, scriptPath: basename(scriptPath) });
    return { file: beside };
  } catch (error) {
    if (!READ_ONLY_CODES.has((error as NodeJS.ErrnoException).code ?? '')) return { diagnostic: cacheWriteFailed(beside, error) };
  }
  try {
    await mkdir(dirname(fallback), { recursive: true });
    await writeAtomically(fallback, { ...cache, scriptPath: resolve(scriptPath) });
    return { file: fallback };
  } catch (error) {
    return { diagnostic: cacheWriteFailed(fallback, error) };
  }
}

function writeAtomically(file: string, value: unknown): Promise<void> {
  return writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

function cacheWriteFailed(file: string, error: unknown): Diagnostic {
  return { severity: 'info', file, message: fileError('write the tool cache', file, error).message, hint: 'The module still loads, but is parsed again at every start.', code: 'cache-write-failed' };
}
