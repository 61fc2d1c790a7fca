// `/tool_name {json}` or `/tool_name` typed in the chat: runs a tool by hand, no model needed.

export type SlashCommand =
  | { ok: true; name: string; args: Record<string, unknown> }
  | { ok: false; name: string; error: string };

const PATTERN = /^\/([A-Za-z_][\w.:-]*)(?:\s+([\s\S]*))?$/;

/** Null when the text is not shaped like a slash command. */
export function parseSlashCommand(text: string): SlashCommand | null {
  const match = PATTERN.exec(text.trim());
  if (!match) return null;
  const name = match[1]!;
  const rest = match[2]?.trim() ?? '';
  if (rest === '') return { ok: true, name, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(rest);
  } catch (error) {
    return { ok: false, name, error: `The arguments after /${name} are not valid JSON (${(error as Error).message}). Write them as one JSON object, e.g. /${name} {"key": "value"}.` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, name, error: `The arguments after /${name} must be a JSON object, e.g. /${name} {"key": "value"}.` };
  }
  return { ok: true, name, args: value as Record<string, unknown> };
}
