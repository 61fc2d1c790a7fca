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

/** A source of tool groups. Contract: groups() is cheap and current; listeners run after it changed. */
export interface ToolGroupSource {
  groups(): ToolGroup[];
  diagnostics(): Diagnostic[];
  /** Contract: the listener runs after groups() changed; returns its disposer. */
  onChanged(listener: (change: ToolsChange) => void): Disposer;
  /** Reads everything again; resolves after the listeners ran. */
  reload?(): Promise<void>;
  close?(): void | Promise<void>;
}

/**
 * Several sources as one: groups and diagnostics in source order, every source's changes passed
 * on as they come. A group name two sources share is the executor's problem (it refuses the second
 * registration with a diagnostic), as for two folders declaring one group.
 */
export function combineGroupSources(sources: ToolGroupSource[], options: { onListenerError?: (error: unknown) => void } = {}): ToolGroupSource & { close(): Promise<void> } {
  const changed = new Emitter<ToolsChange>(options);
  const offs = sources.map((source) => source.onChanged((change) => changed.fire(change)));
  return {
    groups: () => sources.flatMap((s) => s.groups()),
    diagnostics: () => sources.flatMap((s) => s.diagnostics()),
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
