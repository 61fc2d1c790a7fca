// Lists a fixture case folder's entries the way discovery classifies them.
import { cpSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifyEntry } from '../../electron/runtime/sources/discovery/classify-entry.ts';
import type { SourceEntry } from '../../electron/runtime/sources/types.ts';
import type { Tool, ToolGroup } from '../../electron/runtime/tools/types.ts';

export const TOOL_FIXTURES = fileURLToPath(new URL('../fixtures/tools/', import.meta.url));

export function fixtureEntries(caseName: string, root = join(TOOL_FIXTURES, caseName)): SourceEntry[] {
  return readdirSync(root)
    .sort()
    .map((name) => classifyEntry(root, join(root, name), statSync(join(root, name)).isDirectory()))
    .filter((e): e is SourceEntry => e !== null);
}

export function toolsByName(groups: ToolGroup[]): Map<string, Tool> {
  return new Map(groups.flatMap((g) => g.tools).map((t) => [t.definition.function.name, t]));
}

/** A fresh copy of a fixture case (loaders may write caches beside scripts). */
export function copyFixtureCase(caseName: string): string {
  const root = join(mkdtempSync(join(tmpdir(), 'td-')), caseName);
  cpSync(join(TOOL_FIXTURES, caseName), root, { recursive: true });
  return root;
}
