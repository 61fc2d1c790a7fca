// Loose `*.py` tool modules (seed 000): one ToolGroup per file, one tool per public top-level
// function. Smart loading (load-module-caches.ts): a fresh `{stem}.tool.json` is used as is (no
// process at all); all stale modules are parsed together by one interpreter, then cached.
import type { Stats } from 'node:fs';
import { basename } from 'node:path';
import { loadModuleCaches } from '../cached-modules/load-caches.ts';
import { DEFAULT_TOOL_SOURCE_MAX_BYTES } from '../files/read-text-file.ts';
import type { CacheSpec, CachedDiagnostic, CachedTool, ModuleCacheFile } from '../cached-modules/cache.ts';
import { buildModuleGroups, fileStem as stem } from '../cached-modules/groups.ts';
import { POLICY_HINT, readPermission, timeoutOf } from '../cached-modules/permissions.ts';
import type { ParsedPythonModule } from './parse.ts';
import { PYTHON_PARSER_VERSION, parsePythonModules } from './parse.ts';
import { createPythonTool } from './tool.ts';
import type { SourceContext, SourceLoader } from '../types.ts';

export function pythonCacheSpec(scriptPath: string, ctx: Pick<SourceContext, 'cacheDir'>): CacheSpec {
  return { type: 'PythonModule', fileName: `${stem(scriptPath)}.tool.json`, parserVersion: PYTHON_PARSER_VERSION, cacheDir: ctx.cacheDir };
}

export const loadPythonModules: SourceLoader = async (entries, ctx) => {
  const { caches, diagnostics } = await loadModuleCaches(entries, {
    spec: (path) => pythonCacheSpec(path, ctx),
    parse: (paths) => parsePythonModules(paths, ctx),
    toCacheFile,
  }, ctx.toolSourceMaxBytes ?? DEFAULT_TOOL_SOURCE_MAX_BYTES);
  return buildModuleGroups(entries, caches, (cached, entry, cache) => createPythonTool(cached, entry, cache.tooldesk?.secrets ?? [], ctx), diagnostics);
};

function toCacheFile(module: ParsedPythonModule, scriptPath: string, stats: Stats): ModuleCacheFile {
  const meta = { parserVersion: PYTHON_PARSER_VERSION, scriptMtimeMs: stats.mtimeMs, scriptSize: stats.size };
  const base = { type: 'PythonModule' as const, name: stem(scriptPath), scriptPath: basename(scriptPath) };
  if (!module.ok) return { ...base, tools: [], tooldesk: { ...meta, error: module.error } };
  const diagnostics: CachedDiagnostic[] = [...module.diagnostics];
  const tools = module.tools.map((parsed): CachedTool => {
    const { permission, problems } = readPermission(parsed.attributes);
    for (const problem of problems) diagnostics.push(badPolicy(`${parsed.function.name}: ${problem}`, parsed.line));
    return {
      type: 'function',
      function: parsed.function,
      ...permission,
      ...(parsed.declaredReturnType ? { declaredReturnType: parsed.declaredReturnType } : {}),
      line: parsed.line,
      ...(parsed.hasFormat ? { hasFormat: true } : {}),
      ...timeoutOf(parsed.attributes.timeout, parsed.function.name, parsed.line, diagnostics),
    };
  });
  const defaults = readPermission(module.defaultPermissions);
  for (const problem of defaults.problems) diagnostics.push(badPolicy(`defaultPermissions: ${problem}`));
  return {
    ...base,
    tools,
    ...(module.rulePrompt ? { rulePrompt: module.rulePrompt } : {}),
    ...(Object.keys(defaults.permission).length ? { defaultPermissions: { ...defaults.permission } } : {}),
    tooldesk: { ...meta, ...(module.secrets.length ? { secrets: module.secrets } : {}), ...(diagnostics.length ? { diagnostics } : {}) },
  };
}

function badPolicy(message: string, line?: number): CachedDiagnostic {
  return { severity: 'warning', ...(line ? { line } : {}), message: `Unknown policy value, ignored: ${message}`, hint: POLICY_HINT, code: 'bad-policy' };
}
