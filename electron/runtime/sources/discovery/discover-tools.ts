// Scans tool roots in order, classifies each entry, hands each format's entries to its loader
// (in one batch, so Python modules share one parse), and assembles the groups.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UNTRUSTED_FOLDER_CODE, type Diagnostic } from '../../../../shared/tools.ts';
import { FORMAT_DOCS } from '../../../../shared/docs-pages.ts';
import { assembleGroups, splitByEntry, type EntryResult } from './assemble-groups.ts';
import { classifyEntry } from './classify-entry.ts';
import { missingInterpreterDiagnostics } from './missing-interpreter.ts';
import { loadModuleFactories } from '../module/index.ts';
import { loadPowerShellModules } from '../powershell/index.ts';
import { loadPythonFiles } from '../open-webui/index.ts';
import { BUILTIN_TOOL_NAMES } from './reserved-tool-names.ts';
import { loadScriptFolders } from '../script-folder/index.ts';
import { loadThreeLayerTools } from '../three-layer/index.ts';
import { asToolRoot, type ToolRoot } from './tool-roots.ts';
import type { LoadResult, SourceContext, SourceEntry, SourceLoader } from '../types.ts';

export const LOADERS: Record<SourceEntry['format'], SourceLoader> = {
  // Open WebUI Tools files are .py files too: that loader hands the other ones to the Python loader.
  python: loadPythonFiles,
  'open-webui': loadPythonFiles,
  powershell: loadPowerShellModules,
  script: loadScriptFolders,
  'three-layer': loadThreeLayerTools,
  module: loadModuleFactories,
};

export interface DiscoverOptions {
  /** Names no tool may take; default the built-in variable tools. */
  reservedNames?: Iterable<string>;
}

/** Classifies one entry of a root, honouring the root's accepted formats; an untrusted root has none. */
export function classifyInRoot(root: ToolRoot, path: string, isDirectory: boolean): SourceEntry | null {
  if (root.untrusted) return null;
  const entry = classifyEntry(root.path, path, isDirectory);
  if (!entry || (root.formats && !root.formats.includes(entry.format))) return null;
  return entry;
}

/** A FIFO or device named like a tool would block whoever reads it: it is reported, never loaded. */
export function notRegularDiagnostic(path: string): Diagnostic {
  return { severity: 'error', file: path, message: 'Cannot read: not a regular file', hint: 'Tools are regular files or folders; remove this entry.', code: 'unreadable' };
}

/** The one line every surface shows for a project folder the user has not approved. */
export function untrustedFolderDiagnostic(path: string): Diagnostic {
  return {
    severity: 'warning',
    file: path,
    message: 'untrusted project folder — review: none of its tools is loaded until you approve this folder',
    hint: `Look at what is in it, then approve it in the Tools panel or run \`tooldesk tools trust ${path}\`.`,
    code: UNTRUSTED_FOLDER_CODE,
  };
}

export async function scanRoot(root: string | ToolRoot): Promise<{ entries: SourceEntry[]; diagnostics: Diagnostic[] }> {
  const spec = asToolRoot(root);
  // Not even listed: what is in an unapproved folder is none of the app's business yet.
  if (spec.untrusted) return { entries: [], diagnostics: [untrustedFolderDiagnostic(spec.path)] };
  try {
    const dirents = await readdir(spec.path, { withFileTypes: true });
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const entries: SourceEntry[] = [];
    const diagnostics: Diagnostic[] = [];
    for (const d of dirents) {
      const path = join(spec.path, d.name);
      const kind = d.isDirectory() ? 'directory' : d.isFile() ? 'file' : d.isSymbolicLink() ? await targetKind(path) : 'special';
      if (kind === 'missing') continue; // a dangling link, like any stray file
      const entry = classifyInRoot(spec, path, kind === 'directory');
      if (!entry) continue;
      if (kind === 'special') {
        diagnostics.push(notRegularDiagnostic(path));
        continue;
      }
      entries.push(entry);
    }
    return { entries, diagnostics };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { entries: [], diagnostics: [] };
    return {
      entries: [],
      diagnostics: [{ severity: 'error', file: spec.path, message: `Cannot read tools folder: ${(error as Error).message}`, hint: 'Check the folder exists and is readable, or remove it from the tool roots in Settings.' }],
    };
  }
}

async function targetKind(path: string): Promise<'directory' | 'file' | 'special' | 'missing'> {
  try {
    const target = await stat(path);
    return target.isDirectory() ? 'directory' : target.isFile() ? 'file' : 'special';
  } catch {
    return 'missing';
  }
}

/**
 * Loads entries (any formats, any roots) and returns one result per entry. Entries of one format
 * go to their loader together. `rootIndexOf` gives each entry's root position. Never throws.
 */
export async function loadEntries(entries: SourceEntry[], ctx: SourceContext, rootIndexOf: (entry: SourceEntry) => number): Promise<EntryResult[]> {
  const byFormat = new Map<SourceEntry['format'], SourceEntry[]>();
  for (const entry of entries) {
    const list = byFormat.get(entry.format) ?? [];
    list.push(entry);
    byFormat.set(entry.format, list);
  }
  const results: EntryResult[] = [];
  for (const [format, list] of byFormat) {
    let loaded: LoadResult;
    try {
      loaded = await LOADERS[format](list, ctx);
    } catch (error) {
      // Loaders promise not to throw; if one does, its entries still get a diagnostic each.
      loaded = { groups: [], diagnostics: list.map((e) => ({ severity: 'error' as const, file: e.path, message: `Loading failed: ${(error as Error).message}`, code: 'loader-failed' })) };
    }
    // Each problem links to its format's page (how to fix it), unless its maker named another.
    const found = [...loaded.diagnostics, ...missingInterpreterDiagnostics(list, ctx)].map((d) => (d.docs ? d : { ...d, docs: FORMAT_DOCS[format] }));
    const split = splitByEntry(list, loaded.groups, found);
    for (const entry of list) {
      const part = split.get(entry.path)!;
      results.push({ entry, rootIndex: rootIndexOf(entry), groups: part.groups, diagnostics: part.diagnostics });
    }
  }
  return results;
}

/** Scans roots in order; an entry reachable twice (a root listed twice) keeps its first root. */
export async function scanRoots(roots: ToolRoot[]): Promise<{ entries: SourceEntry[]; rootIndex: Map<string, number>; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const entries: SourceEntry[] = [];
  const rootIndex = new Map<string, number>();
  for (const [index, root] of roots.entries()) {
    const scanned = await scanRoot(root);
    diagnostics.push(...scanned.diagnostics);
    for (const entry of scanned.entries) {
      if (rootIndex.has(entry.path)) continue;
      rootIndex.set(entry.path, index);
      entries.push(entry);
    }
  }
  return { entries, rootIndex, diagnostics };
}

/** Loads every tool under `roots` (in order: earlier roots win name clashes). Never throws. */
export async function discoverTools(roots: (string | ToolRoot)[], ctx: SourceContext, options: DiscoverOptions = {}): Promise<LoadResult & { entries: EntryResult[] }> {
  const { entries, rootIndex, diagnostics } = await scanRoots(roots.map(asToolRoot));
  const results = await loadEntries(entries, ctx, (e) => rootIndex.get(e.path) ?? 0);
  const assembled = assembleGroups(results, options.reservedNames ?? BUILTIN_TOOL_NAMES);
  return { groups: assembled.groups, diagnostics: [...diagnostics, ...assembled.diagnostics], entries: results };
}
