// Loose `*.ps1` tool modules (seed 000): one ToolGroup per file, one tool per top-level function
// (not `_*`, `Internal-*`, `Format-*`). Smart loading as for Python (load-module-caches.ts).
//
// Cache file name: `{stem}.tool.json` (seed 000's name), except when a `{stem}.py` sits beside
// the script: Python owns that name, and the PowerShell cache is `{stem}.ps1.tool.json`.
// Both are read only when their `type` is "PowerShellModule".
import { existsSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { loadModuleCaches } from '../cached-modules/load-caches.ts';
import { DEFAULT_TOOL_SOURCE_MAX_BYTES } from '../files/read-text-file.ts';
import type { CacheSpec, CachedDiagnostic, ModuleCacheFile } from '../cached-modules/cache.ts';
import { buildModuleGroups, fileStem } from '../cached-modules/groups.ts';
import { POLICY_HINT, readPermission, timeoutOf } from '../cached-modules/permissions.ts';
import type { ParsedPowerShellFile } from './parse.ts';
import { POWERSHELL_PARSER_VERSION, parsePowerShellModules } from './parse.ts';
import { createPowerShellTool } from './tool.ts';
import type { SourceContext, SourceLoader } from '../types.ts';

export function powershellCacheSpec(scriptPath: string, ctx: Pick<SourceContext, 'cacheDir'>): CacheSpec {
  const stem = fileStem(scriptPath);
  const pythonSibling = existsSync(join(dirname(scriptPath), `${stem}.py`));
  return { type: 'PowerShellModule', fileName: pythonSibling ? `${stem}.ps1.tool.json` : `${stem}.tool.json`, parserVersion: POWERSHELL_PARSER_VERSION, cacheDir: ctx.cacheDir };
}

export const loadPowerShellModules: SourceLoader = async (entries, ctx) => {
  const { caches, diagnostics } = await loadModuleCaches(entries, {
    spec: (path) => powershellCacheSpec(path, ctx),
    parse: async (paths) => ({ ok: true, modules: await parsePowerShellModules(paths, ctx) }),
    toCacheFile,
  }, ctx.toolSourceMaxBytes ?? DEFAULT_TOOL_SOURCE_MAX_BYTES);
  return buildModuleGroups(entries, caches, (cached, entry, cache) => createPowerShellTool(cached, entry, cache.tooldesk?.secrets ?? [], ctx), diagnostics);
};

function toCacheFile(module: ParsedPowerShellFile, scriptPath: string, stats: Stats): ModuleCacheFile {
  const meta = { parserVersion: POWERSHELL_PARSER_VERSION, scriptMtimeMs: stats.mtimeMs, scriptSize: stats.size };
  const base = { type: 'PowerShellModule' as const, name: fileStem(scriptPath), scriptPath: basename(scriptPath) };
  if (!module.ok) return { ...base, tools: [], tooldesk: { ...meta, error: module.error } };
  const diagnostics: CachedDiagnostic[] = [...module.diagnostics];
  const defaults = readPermission(module.toolConfig);
  for (const problem of defaults.problems) {
    diagnostics.push({ severity: 'warning', message: `Unknown policy value in # TOOL_CONFIG, ignored: ${problem}`, hint: POLICY_HINT, code: 'bad-policy' });
  }
  const timeout = timeoutOf(module.toolConfig?.timeout, '# TOOL_CONFIG', undefined, diagnostics);
  const secrets = secretsOf(module.toolConfig?.secrets, diagnostics);
  return {
    ...base,
    tools: module.tools.map((tool) => ({ ...tool, ...timeout })),
    ...(module.rulePrompt ? { rulePrompt: module.rulePrompt } : {}),
    ...(Object.keys(defaults.permission).length ? { defaultPermissions: { ...defaults.permission } } : {}),
    tooldesk: { ...meta, ...(secrets.length ? { secrets } : {}), ...(diagnostics.length ? { diagnostics } : {}) },
  };
}

/** TOOL_CONFIG's `"secrets"`: keychain names every function of the file gets as environment variables. */
function secretsOf(value: unknown, diagnostics: CachedDiagnostic[]): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((name) => typeof name === 'string' && name.trim() !== '')) return value as string[];
  diagnostics.push({ severity: 'warning', message: '"secrets" in # TOOL_CONFIG must be an array of key names; ignored', hint: 'Write # TOOL_CONFIG: {"secrets": ["POLYGON_API_KEY"]}; each name reaches the script as an environment variable.', code: 'bad-secrets' });
  return [];
}
