// Where tool groups come from, and the one "tools changed" message every source sends. The tool
// registry (files on disk) is one source; the MCP manager is another; the runtime combines them.
import type { Diagnostic } from '../../../shared/tools.ts';
import type { Disposer } from '../base/emitter.ts';
import { Emitter } from '../base/emitter.ts';
import type { ToolGroup } from './types.ts';

/** Which groups changed. An executor re-registers exactly these (others keep their rule variables). */
export interface ToolsChange {
  added: string[];
  removed: string[];
  /** Groups whose tools or rules changed (reloaded tools are new objects). */
  updated: string[];
  /** All of the source's current diagnostics (not only the new ones). */
  diagnostics: Diagnostic[];
}

/**
 * A source of tool groups. Contract: groups() is cheap and current; after the source is handed to
 * combineGroupSources, every change of groups() is announced to onChanged's listeners.
 */
export interface ToolGroupSource {
  groups(): ToolGroup[];
  diagnostics(): Diagnostic[];
  /** Contract: the listener runs after groups() changed; returns its disposer. */
  onChanged(listener: (change: ToolsChange) => void): Disposer;
  /** Reads everything again; resolves after the listeners ran. */
  reload?(): Promise<void>;
  close?(): void | Promise<void>;
}

/** Which groups differ between two lists (tools compared by identity: reloaded = new objects). */
export function diffGroups(before: ToolGroup[], after: ToolGroup[], diagnostics: Diagnostic[]): ToolsChange {
  const old = new Map(before.map((g) => [g.name, g]));
  const now = new Map(after.map((g) => [g.name, g]));
  const added = [...now.keys()].filter((n) => !old.has(n));
  const removed = [...old.keys()].filter((n) => !now.has(n));
  const updated = [...now.keys()].filter((n) => {
    const a = old.get(n);
    const b = now.get(n)!;
    if (!a) return false;
    return a.tools.length !== b.tools.length || a.tools.some((t, i) => t !== b.tools[i]) || a.rulePrompt !== b.rulePrompt;
  });
  return { added, removed, updated, diagnostics };
}

/**
 * Several sources as one: groups and diagnostics in source order. A group name an earlier source
 * already provides is not loaded from a later one (a diagnostic says so), as user roots win over
 * well-known folders. Each source's change is passed on as the difference it makes to the whole
 * (a server going away uncovers a same-named group of a later source; it never removes an earlier one's).
 */
export function combineGroupSources(sources: ToolGroupSource[], options: { onListenerError?: (error: unknown) => void } = {}): ToolGroupSource & { reload(): Promise<void>; close(): Promise<void> } {
  const changed = new Emitter<ToolsChange>(options);
  const assemble = (): { groups: ToolGroup[]; clashes: Diagnostic[] } => {
    const groups: ToolGroup[] = [];
    const clashes: Diagnostic[] = [];
    const seen = new Set<string>();
    for (const source of sources) {
      for (const group of source.groups()) {
        if (seen.has(group.name)) {
          clashes.push({
            severity: 'error',
            file: group.tools[0]?.source?.file ?? group.name,
            message: `Tool group "${group.name}" is already provided by another tool source; this one was not loaded.`,
            hint: 'Rename one of the two (the folder, the server name in mcpServers, or the group).',
            code: 'group-name-taken',
          });
          continue;
        }
        seen.add(group.name);
        groups.push(group);
      }
    }
    return { groups, clashes };
  };
  let current = assemble();
  const diagnostics = () => [...sources.flatMap((s) => s.diagnostics()), ...current.clashes];
  const offs = sources.map((source) =>
    source.onChanged(() => {
      const before = current.groups;
      current = assemble();
      changed.fire(diffGroups(before, current.groups, diagnostics()));
    }),
  );
  return {
    groups: () => current.groups,
    diagnostics,
    onChanged: changed.event,
    async reload() {
      await Promise.all(sources.map((s) => s.reload?.()));
    },
    async close() {
      for (const off of offs) off();
      changed.dispose();
      await Promise.all(sources.map((s) => s.close?.()));
    },
  };
}
