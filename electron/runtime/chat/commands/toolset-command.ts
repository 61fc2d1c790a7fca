// `/toolset NAME` typed in the chat picks a tool set for it (`/toolset` alone, or `/toolset none`,
// goes back to none). It never reaches the model and records no message.
import type { ChatSettings } from '../../../../shared/chat.ts';
import type { Settings } from '../../../../shared/settings.ts';
import type { TurnResult } from '../turn/chat-turn.ts';
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

/** What picking a tool set changes in the chat. */
export interface ToolSetPorts {
  chat(): ChatSettings;
  /** Contract: records and applies the chat's settings (the tool set narrows its tools from now on). */
  setChatSettings(chat: ChatSettings): void;
  /** Contract: an info notice in the chat; never throws. */
  notice(message: string): void;
}

/** Applies a parsed `/toolset` to the chat: its settings change and a notice says so; no message is recorded. */
export function pickToolSet(command: ToolSetCommand, ports: ToolSetPorts): TurnResult {
  if (!command.ok) return { stopReason: 'error', error: { name: 'UnknownToolSet', message: command.message } };
  const { toolSet: _old, ...rest } = ports.chat();
  ports.setChatSettings(command.toolSet ? { ...rest, toolSet: command.toolSet } : rest);
  ports.notice(command.message);
  return { stopReason: 'stop' };
}
