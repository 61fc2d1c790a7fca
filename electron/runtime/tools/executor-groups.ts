// Puts a tool source's groups and the settings' enable switches into an executor. ToolSession
// (tool-session.ts) keeps every conversation in step through here, so the Tools panel and
// `tools list` show exactly what a session sees.
import type { Settings } from '../../../shared/settings.ts';
import type { ToolsChange } from './tools-change.ts';
import type { ToolGroup } from './types.ts';
import type { ToolExecutor } from './tool-executor.ts';

type EnableState = Pick<Settings, 'groupDefaults' | 'toolDefaults'>;
/** Which groups changed (a ToolsChange without its diagnostics). */
export type GroupsChange = Pick<ToolsChange, 'added' | 'removed' | 'updated'>;

/** The part of ToolExecutor group syncing needs (structural, so tests can pass a recorder). */
export interface GroupHost {
  registerToolGroup(group: ToolGroup): unknown;
  unregisterToolGroup(name: string): unknown;
}

/** Registers exactly `groups` (built-ins stay); each is re-registered so a reloaded group's new tools apply. Returns the registration errors. */
export function replaceExecutorGroups(executor: ToolExecutor, groups: ToolGroup[]): string[] {
  const names = new Set(groups.map((g) => g.name));
  for (const info of executor.listGroups()) {
    if (!info.builtin && !names.has(info.name)) executor.unregisterToolGroup(info.name);
  }
  const errors: string[] = [];
  for (const group of groups) {
    executor.unregisterToolGroup(group.name);
    errors.push(...executor.registerToolGroup(group).errors);
  }
  return errors;
}

/**
 * Applies one change: removed groups go, added and updated ones are (re)registered. A call already
 * running keeps the Tool object it started with; untouched groups keep their rule variables.
 */
export function syncExecutorGroups(executor: GroupHost, groups: ToolGroup[], change: GroupsChange): void {
  for (const name of [...change.removed, ...change.updated]) executor.unregisterToolGroup(name);
  const byName = new Map(groups.map((g) => [g.name, g]));
  for (const name of [...change.added, ...change.updated]) {
    const group = byName.get(name);
    if (group) executor.registerToolGroup(group);
  }
}

/** Groups are off and tools on unless the settings say otherwise. */
export function applyEnableState(executor: ToolExecutor, { groupDefaults, toolDefaults }: EnableState): void {
  for (const group of executor.listGroups()) {
    // Own keys only: a group named `toString` must not read Object.prototype's function as "on".
    executor.toggleGroupEnabled(group.name, Object.hasOwn(groupDefaults, group.name) ? groupDefaults[group.name] === true : group.enabledByDefault === true);
    for (const tool of group.tools) executor.setToolEnabled(tool.name, Object.hasOwn(toolDefaults, tool.name) ? toolDefaults[tool.name] !== false : true);
  }
}
