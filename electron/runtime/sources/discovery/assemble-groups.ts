// Puts per-entry results together in root order: groups of the same name merge, a tool name is
// taken once (the earlier root wins; built-in names are never available), clashes are diagnosed.
import { dirname } from 'node:path';
import type { Diagnostic } from '../../../../shared/tools.ts';
import type { ToolGroup } from '../../tools/types.ts';
import type { SourceEntry } from '../types.ts';

export interface EntryResult {
  entry: SourceEntry;
  /** Position of the entry's root in the ordered roots. */
  rootIndex: number;
  /** This entry's share of its groups (group fields copied, tools of this entry only). */
  groups: ToolGroup[];
  diagnostics: Diagnostic[];
}

export function compareEntryResults(a: EntryResult, b: EntryResult): number {
  return a.rootIndex - b.rootIndex || (a.entry.path < b.entry.path ? -1 : a.entry.path > b.entry.path ? 1 : 0);
}

export function assembleGroups(results: EntryResult[], reservedNames: Iterable<string>): { groups: ToolGroup[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  /** Tool name → the file that took it and its root's position ('' = built in). */
  const taken = new Map<string, { file: string; rootIndex: number }>();
  for (const name of reservedNames) taken.set(name, { file: '', rootIndex: -1 });
  const groups = new Map<string, ToolGroup>();
  for (const result of [...results].sort(compareEntryResults)) {
    diagnostics.push(...result.diagnostics);
    for (const fragment of result.groups) {
      const kept = fragment.tools.filter((tool) => {
        const name = tool.definition.function.name;
        const file = tool.source?.file ?? result.entry.path;
        const owner = taken.get(name);
        if (owner === undefined) {
          taken.set(name, { file, rootIndex: result.rootIndex });
          return true;
        }
        diagnostics.push({
          severity: 'error',
          file,
          ...(tool.source?.line ? { line: tool.source.line } : {}),
          message: `Tool name "${name}" conflicts with existing tool ${owner.file ? `from ${owner.file}` : '(built in)'}`,
          hint: clashHint(name, file, owner, result.rootIndex),
          code: 'name-conflict',
        });
        return false;
      });
      if (kept.length === 0) continue;
      const existing = groups.get(fragment.name);
      if (existing) mergeInto(existing, fragment, kept);
      else groups.set(fragment.name, { ...fragment, tools: kept });
    }
  }
  return { groups: [...groups.values()], diagnostics };
}

function clashHint(name: string, file: string, owner: { file: string; rootIndex: number }, rootIndex: number): string {
  if (!owner.file) return `"${name}" is a built-in tool; give this tool another name.`;
  if (owner.file === file) return `This file defines two tools named "${name}"; rename one (the first one is loaded).`;
  if (owner.rootIndex === rootIndex) return `Rename one of them; ${owner.file} is loaded because it sorts first in the same root.`;
  return `Rename one of them; ${owner.file} is loaded because its root comes first.`;
}

function mergeInto(group: ToolGroup, fragment: ToolGroup, tools: ToolGroup['tools']): void {
  group.tools = [...group.tools, ...tools];
  if (fragment.declareSkillRules) group.declareSkillRules = { ...fragment.declareSkillRules, ...group.declareSkillRules };
  if (fragment.defaultPermission && !group.defaultPermission) group.defaultPermission = fragment.defaultPermission;
  if (fragment.rulePrompt && fragment.rulePrompt !== group.rulePrompt) {
    const first = group.rulePrompt;
    const second = fragment.rulePrompt;
    if (!first) group.rulePrompt = second;
    else if (typeof first === 'string' && typeof second === 'string') group.rulePrompt = `${first}\n\n${second}`;
    else {
      const text = (p: NonNullable<ToolGroup['rulePrompt']>, names: string[]) => (typeof p === 'string' ? p : p(names));
      group.rulePrompt = (names) => [text(first, names), text(second, names)].filter(Boolean).join('\n\n');
    }
  }
}

/** Splits a loader's groups and diagnostics by the entry each tool/diagnostic belongs to. */
export function splitByEntry(
  entries: SourceEntry[],
  groups: ToolGroup[],
  diagnostics: Diagnostic[],
): Map<string, { groups: ToolGroup[]; diagnostics: Diagnostic[] }> {
  const byPath = new Map<string, { groups: ToolGroup[]; diagnostics: Diagnostic[] }>();
  for (const entry of entries) byPath.set(entry.path, { groups: [], diagnostics: [] });
  const owner = (file: string | undefined) => {
    let path = file;
    while (path) {
      const found = byPath.get(path);
      if (found) return found;
      const parent = dirname(path);
      if (parent === path) break;
      path = parent;
    }
    return entries[0] ? byPath.get(entries[0].path)! : undefined;
  };
  for (const group of groups) {
    const fragments = new Map<object, ToolGroup>();
    for (const tool of group.tools) {
      const bucket = owner(tool.source?.file ?? group.source?.file);
      if (!bucket) continue;
      let fragment = fragments.get(bucket);
      if (!fragment) {
        fragment = { ...group, tools: [] };
        fragments.set(bucket, fragment);
        bucket.groups.push(fragment);
      }
      fragment.tools.push(tool);
    }
  }
  for (const diagnostic of diagnostics) owner(diagnostic.file)?.diagnostics.push(diagnostic);
  return byPath;
}
