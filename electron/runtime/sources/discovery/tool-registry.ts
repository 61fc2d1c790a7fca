// The live set of user tools: loads every root, watches them, and on a change re-parses only the
// entries that were touched, then tells listeners which groups were added, removed or updated.
// Executors hold Tool objects, so a call in flight finishes on the version it started with.
import { mkdirSync, watch, type FSWatcher, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import type { Diagnostic } from '../../../../shared/tools.ts';
import { Emitter, type Disposer } from '../../base/emitter.ts';
import { diffGroups, type ToolGroupSource, type ToolsChange } from '../../tools/tools-change.ts';
import type { ToolGroup } from '../../tools/types.ts';
import { assembleGroups, type EntryResult } from './assemble-groups.ts';
import { classifyInRoot, loadEntries, notRegularDiagnostic, scanRoot, scanRoots } from './discover-tools.ts';
import { BUILTIN_TOOL_NAMES } from './reserved-tool-names.ts';
import { asToolRoot, type ToolRoot } from './tool-roots.ts';
import type { SourceContext, SourceEntry } from '../types.ts';

/** Files a module tool can import (and so depend on) without them being tools themselves. */
const HELPER_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json']);

export interface ToolRegistryOptions {
  roots: (string | ToolRoot)[];
  /**
   * Contract: called at every (re)load, so settings changes (interpreter, sandbox, limits) apply;
   * must return quickly and not throw.
   */
  context: () => SourceContext;
  reservedNames?: Iterable<string>;
  /** Quiet time before a burst of file events is processed. */
  debounceMs?: number;
  /** Watch errors and other non-fatal trouble. */
  log?: (message: string) => void;
}

export class ToolRegistry implements ToolGroupSource {
  #options: ToolRegistryOptions;
  #roots: ToolRoot[];
  #results = new Map<string, EntryResult>();
  #groups: ToolGroup[] = [];
  #scanDiagnostics: Diagnostic[] = [];
  #diagnostics: Diagnostic[] = [];
  readonly #changed: Emitter<ToolsChange>;
  #watchers: FSWatcher[] = [];
  #pending = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #loaded = false;
  #emittedDiagnostics = '[]';

  constructor(options: ToolRegistryOptions) {
    this.#options = options;
    this.#roots = options.roots.map(asToolRoot);
    this.#changed = new Emitter({ onListenerError: (error) => options.log?.(`tools.changed listener failed: ${(error as Error).message}`) });
  }

  roots(): ToolRoot[] {
    return [...this.#roots];
  }

  groups(): ToolGroup[] {
    return this.#groups;
  }

  diagnostics(): Diagnostic[] {
    return this.#diagnostics;
  }

  /** Full scan of every root. Later calls reload everything and emit the difference. */
  load(): Promise<void> {
    return this.#serial(async () => {
      const before = this.#groups;
      const { entries, rootIndex, diagnostics } = await scanRoots(this.#roots);
      const results = await loadEntries(entries, this.#options.context(), (e) => rootIndex.get(e.path) ?? 0);
      this.#results = new Map(results.map((r) => [r.entry.path, r]));
      this.#scanDiagnostics = diagnostics;
      this.#assemble();
      if (this.#loaded) this.#emit(before);
      else this.#emittedDiagnostics = JSON.stringify(this.#diagnostics);
      this.#loaded = true;
    });
  }

  /** Replaces the roots (settings changed) and reloads; watching follows the new roots. */
  async setRoots(roots: (string | ToolRoot)[]): Promise<void> {
    const watching = this.#watchers.length > 0;
    this.#stopWatching();
    this.#roots = roots.map(asToolRoot);
    await this.load();
    if (watching) this.watch();
  }

  /**
   * Re-parses the entries holding `paths` (files or folders anywhere under a root) and emits
   * one change event when groups changed. Used by the watcher and by tool authoring.
   */
  reloadPaths(paths: string[]): Promise<ToolsChange | null> {
    return this.#serial(async () => {
      const touched = new Map<string, { root: ToolRoot; rootIndex: number; path: string }>();
      for (const path of paths) {
        const top = this.#topEntry(path);
        if (!top) continue;
        touched.set(top.path, top);
        // A module may import a helper that is not an entry itself (`_shared.ts`, `lib/util.ts`):
        // its modules are reloaded too, or they would keep running the old helper.
        if (await this.#isModuleHelper(path, top)) {
          for (const result of this.#results.values()) {
            if (result.entry.format === 'module' && result.entry.root === top.root.path) touched.set(result.entry.path, { ...top, path: result.entry.path });
          }
        }
      }
      if (touched.size === 0) return null;
      const before = this.#groups;
      const fresh: SourceEntry[] = [];
      const indexOf = new Map<string, number>();
      for (const { root, rootIndex, path } of touched.values()) {
        this.#results.delete(path);
        let stats: Stats;
        try {
          stats = await stat(path);
        } catch {
          continue; // deleted
        }
        const entry = classifyInRoot(root, path, stats.isDirectory());
        if (!entry) continue;
        if (!stats.isDirectory() && !stats.isFile()) {
          // As at a full scan: a FIFO named x.ps1 would stall the loader (and every reload after it).
          this.#results.set(entry.path, { entry, rootIndex, groups: [], diagnostics: [notRegularDiagnostic(entry.path)] });
          continue;
        }
        fresh.push(entry);
        indexOf.set(entry.path, rootIndex);
      }
      const results = await loadEntries(fresh, this.#options.context(), (e) => indexOf.get(e.path) ?? 0);
      for (const result of results) this.#results.set(result.entry.path, result);
      this.#assemble();
      return this.#emit(before);
    });
  }

  /** Contract: the listener runs after groups() changed; an error it throws is logged. */
  onChanged(listener: (event: ToolsChange) => void): Disposer {
    return this.#changed.event(listener);
  }

  reload(): Promise<void> {
    return this.load();
  }

  /** Watches every root (recursively where the platform allows). Returns a disposer. */
  watch(): () => void {
    this.#stopWatching();
    for (const root of this.#roots) {
      if (root.untrusted) continue; // nothing of it loads until approved, which changes the roots
      if (root.kind === 'user') {
        try {
          mkdirSync(root.path, { recursive: true });
        } catch {
          // unreadable or not creatable: scanRoot already reports it
        }
      }
      const onEvent = (_event: string, filename: string | Buffer | null) => {
        if (filename === null) {
          this.#schedule(root.path); // unknown change: rescan the whole root's entries lazily
          return;
        }
        this.#schedule(join(root.path, filename.toString()));
      };
      try {
        this.#watchers.push(watch(root.path, { recursive: true }, onEvent));
      } catch {
        try {
          this.#watchers.push(watch(root.path, onEvent));
        } catch (error) {
          this.#options.log?.(`cannot watch ${root.path}: ${(error as Error).message}`);
        }
      }
    }
    for (const watcher of this.#watchers) watcher.on('error', (error) => this.#options.log?.(`watch error: ${error.message}`));
    return () => this.#stopWatching();
  }

  /** Stops watching and drops listeners. */
  close(): void {
    this.#stopWatching();
    this.#changed.dispose();
  }

  #schedule(path: string): void {
    // Python/PowerShell caches are written beside their scripts while loading: not a change.
    if (path.endsWith('.tool.json')) return;
    this.#pending.add(path);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const paths = [...this.#pending];
      this.#pending.clear();
      void this.#expand(paths).then((expanded) => this.reloadPaths(expanded));
    }, this.#options.debounceMs ?? 150);
  }

  /** A root path (the platform did not say which file changed) stands for all of its entries, old and new. */
  async #expand(paths: string[]): Promise<string[]> {
    const out: string[] = [];
    for (const path of paths) {
      const root = this.#roots.find((r) => r.path === path);
      if (!root) {
        out.push(path);
        continue;
      }
      out.push(...[...this.#results.keys()].filter((k) => k.startsWith(path + sep)));
      out.push(...(await scanRoot(root)).entries.map((e) => e.path));
    }
    return out;
  }

  #stopWatching(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending.clear();
    for (const watcher of this.#watchers) watcher.close();
    this.#watchers = [];
  }

  /** A changed code file that is not (inside) a tool entry, so only importers can see it. */
  async #isModuleHelper(path: string, top: { root: ToolRoot; path: string }): Promise<boolean> {
    if (!HELPER_EXTENSIONS.has(extname(path)) || path.endsWith('.tool.json') || this.#results.has(top.path)) return false;
    try {
      return classifyInRoot(top.root, top.path, (await stat(top.path)).isDirectory()) === null;
    } catch {
      return true; // deleted, and it was no entry
    }
  }

  /** The root entry (top-level file or folder of a root) a path lies in. */
  #topEntry(path: string): { root: ToolRoot; rootIndex: number; path: string } | null {
    for (const [rootIndex, root] of this.#roots.entries()) {
      const rel = relative(root.path, path);
      if (!rel || rel.startsWith('..') || rel.startsWith(sep)) continue;
      return { root, rootIndex, path: join(root.path, rel.split(sep)[0]!) };
    }
    return null;
  }

  #assemble(): void {
    const assembled = assembleGroups([...this.#results.values()], this.#options.reservedNames ?? BUILTIN_TOOL_NAMES);
    this.#groups = assembled.groups;
    this.#diagnostics = [...this.#scanDiagnostics, ...assembled.diagnostics];
  }

  #emit(before: ToolGroup[]): ToolsChange | null {
    const event = diffGroups(before, this.#groups, this.#diagnostics);
    const diagnosticsKey = JSON.stringify(this.#diagnostics);
    const diagnosticsChanged = diagnosticsKey !== this.#emittedDiagnostics;
    this.#emittedDiagnostics = diagnosticsKey;
    // A touched file that changed nothing (a cache rewrite, an editor's temp file) is not news.
    if (event.added.length + event.removed.length + event.updated.length === 0 && !diagnosticsChanged) return null;
    this.#changed.fire(event);
    return event;
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
