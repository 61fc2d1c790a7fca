// Turns Python/PowerShell module caches into ToolGroups: group = file stem, rulePrompt and
// default permissions from the cache, a function name already taken by an earlier module
// dropped with a diagnostic naming both files.
import { basename, extname } from 'node:path';
import type { Diagnostic } from '../../../../shared/tools.ts';
import type { Tool, ToolGroup } from '../../tools/types.ts';
import type { CachedTool, ModuleCacheFile } from './cache.ts';
import { readPermission } from './permissions.ts';
import type { LoadResult, SourceEntry } from '../types.ts';

export const fileStem = (path: string): string => basename(path, extname(path));

export function buildModuleGroups(
  entries: SourceEntry[],
  caches: Map<string, ModuleCacheFile>,
  createTool: (cached: CachedTool, entry: SourceEntry, cache: ModuleCacheFile) => Tool,
  diagnostics: Diagnostic[],
): LoadResult {
  const groups: ToolGroup[] = [];
  const owners = new Map<string, string>();
  for (const entry of entries) {
    const cache = caches.get(entry.path);
    if (!cache) continue;
    const meta = cache.tooldesk;
    if (meta?.error) {
      diagnostics.push({ ...meta.error, severity: 'error', file: entry.path });
      continue;
    }
    for (const d of meta?.diagnostics ?? []) diagnostics.push({ ...d, file: entry.path });
    const tools: Tool[] = [];
    for (const cached of cache.tools) {
      const name = cached.function.name;
      const owner = owners.get(name);
      if (owner) {
        diagnostics.push({
          severity: 'warning', file: entry.path, ...(cached.line ? { line: cached.line } : {}), code: 'duplicate-tool-name',
          message: `Tool "${name}" is also defined in ${owner}; the first one wins and this one is not loaded`,
          hint: `Rename ${name} in one of the two files: ${owner} and ${entry.path}.`,
        });
        continue;
      }
      owners.set(name, entry.path);
      tools.push(createTool(cached, entry, cache));
    }
    if (tools.length === 0) continue;
    const group: ToolGroup = { name: fileStem(entry.path), tools, source: { format: entry.format, file: entry.path, root: entry.root } };
    if (cache.rulePrompt) group.rulePrompt = cache.rulePrompt;
    const defaults = readPermission(cache.defaultPermissions).permission;
    if (Object.keys(defaults).length) group.defaultPermission = defaults;
    groups.push(group);
  }
  return { groups, diagnostics };
}
