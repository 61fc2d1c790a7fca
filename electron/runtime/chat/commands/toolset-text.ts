// One line for a tool set, as the chat and the CLI say it.
import type { ToolSet } from '../../../../shared/permissions.ts';

export function describeSet(set: ToolSet): string {
  const items = [...(set.groups ?? []).map((g) => `group ${g}`), ...(set.tools ?? []), ...(set.skills ?? []).map((s) => `skill ${s}`)];
  return `${set.name}: ${items.join(', ') || '(nothing)'}${set.level ? `; level ${set.level}` : ''}${set.rules?.length ? `; ${set.rules.length} rule${set.rules.length === 1 ? '' : 's'}` : ''}`;
}
