// Applies a registry change to one executor: removed groups go, added and updated ones are
// (re)registered. A call already running keeps the Tool object it started with.
import type { ToolGroup } from '../../tools/types.ts';
import type { ToolsChangedEvent } from './tool-registry.ts';

/** The part of ToolExecutor this needs (kept structural so sessions can pass any executor). */
export interface GroupHost {
  registerToolGroup(group: ToolGroup): unknown;
  unregisterToolGroup(name: string): unknown;
}

export function syncExecutorGroups(executor: GroupHost, groups: ToolGroup[], event: Pick<ToolsChangedEvent, 'added' | 'removed' | 'updated'>): void {
  for (const name of [...event.removed, ...event.updated]) executor.unregisterToolGroup(name);
  const byName = new Map(groups.map((g) => [g.name, g]));
  for (const name of [...event.added, ...event.updated]) {
    const group = byName.get(name);
    if (group) executor.registerToolGroup(group);
  }
}
