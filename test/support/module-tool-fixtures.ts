// Helpers for Python/PowerShell module tests: fixtures copied to a tmpdir (loading writes
// caches beside the scripts) and a SourceContext whose runner counts the processes it starts.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultSettings } from '../../shared/settings.ts';
import type { RunSpec } from '../../electron/runtime/runner/types.ts';
import { createSourceContext } from '../../electron/runtime/sources/source-context.ts';
import type { SourceContext, SourceEntry } from '../../electron/runtime/sources/types.ts';
import { classifyEntry } from '../../electron/runtime/sources/discovery/classify-entry.ts';
import { readdirSync, statSync } from 'node:fs';

export const FIXTURES = fileURLToPath(new URL('../fixtures/tools/', import.meta.url));
export const EXAMPLES = fileURLToPath(new URL('../../resources/examples/', import.meta.url));

export const tmp = (): string => mkdtempSync(join(tmpdir(), 'td-'));

/** Copies fixture folders into one fresh root and returns it. */
export function copyFixtures(...names: string[]): string {
  const root = tmp();
  for (const name of names) cpSync(join(FIXTURES, name), root, { recursive: true });
  return root;
}

export interface CountingContext extends SourceContext {
  spawned: RunSpec[];
}

export function countingContext(home: string = tmp(), patch: Partial<SourceContext> = {}): CountingContext {
  const spawned: RunSpec[] = [];
  const settings = defaultSettings();
  settings.sandbox.mode = 'off';
  const ctx = createSourceContext(settings, home, { runnerOptions: { onSpawn: (spec) => spawned.push(spec) } });
  return Object.assign(ctx, patch, { spawned });
}

/** The entries of one format in `root`, as discovery would hand them to the loader. */
export function entriesOf(root: string, format: SourceEntry['format']): SourceEntry[] {
  return readdirSync(root)
    .sort((a, b) => a.localeCompare(b))
    .map((name) => classifyEntry(root, join(root, name), statSync(join(root, name)).isDirectory()))
    .filter((e): e is SourceEntry => e !== null && e.format === format);
}
