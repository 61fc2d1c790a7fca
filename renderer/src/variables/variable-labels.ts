// What the Variables panel shows for a variable's type and value.
import type { VariableType } from '../../../shared/variables.ts';

const TYPE_LABELS: Record<VariableType, string> = {
  RULE: 'Rule',
  ToolCallResult: 'Tool result',
  ToolCallArgs: 'Tool arguments',
  MessageCache: 'Message',
  LLMAdd: 'Note',
  USER_ADD: 'Your note',
};

export function variableTypeLabel(type: VariableType): string {
  return TYPE_LABELS[type] ?? type;
}

/** JSON values are shown indented; anything else exactly as stored. */
export function prettyValue(value: string): string {
  const trimmed = value.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return value;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return value;
  }
}
