// `/toolset NAME` typed in the chat picks a tool set for it (`/toolset` alone, or `/toolset none`,
// goes back to none). It never reaches the model and records no message.
import type { Settings } from '../../../shared/settings.ts';
import { describeSet } from './toolset-text.ts';

export type ToolSetCommand = { ok: true; toolSet: string | undefined; message: string } | { ok: false; message: string };

const PATTERN = /^\/toolset(?:\s+(\S+))?\s*$/;

/** Null when the text is not `/toolset …`. */
export function parseToolSetCommand(text: string, settings: Settings): ToolSetCommand | null {
  const match = PATTERN.exec(text.trim());
  if (!match) return null;
  const name = match[1];
  const sets = settings.toolSets ?? [];
  if (name === undefined || name === 'none') return { ok: true, toolSet: undefined, message: 'This chat uses no tool set now.' };
  const set = sets.find((s) => s.name === name);
  if (!set) {
    return { ok: false, message: `No tool set named "${name}".${sets.length ? ` There are: ${sets.map((s) => s.name).join(', ')}.` : ' Make one in Settings → Tool sets or with `tooldesk toolset add`.'}` };
  }
  return { ok: true, toolSet: name, message: `This chat uses the tool set ${describeSet(set)}.` };
}
