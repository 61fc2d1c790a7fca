// Tool arguments arrive as an object, as the model's raw JSON string, or not at all.
import { errorText } from '../run-tool.ts';

/** The arguments object, or a message for the model saying what is wrong with them. */
export function parseToolArgs(raw: unknown): Record<string, unknown> | string {
  if (raw === undefined || raw === null || raw === '') return {};
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return `The arguments are not valid JSON (${errorText(error)}). Send one JSON object.`;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `The arguments must be a JSON object, not ${Array.isArray(value) ? 'an array' : typeof value}.`;
  }
  return value as Record<string, unknown>;
}
