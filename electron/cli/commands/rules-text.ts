// How rules and tool sets read on the terminal, and the JSON-object option the commands share.
import { UsageError } from '../command.ts';

export { describeRule } from '../../../shared/rule-text.ts';
export { describeSet as describeToolSet } from '../../runtime/chat/commands/toolset-text.ts';

export function parseJsonObject(text: string | undefined, what: string): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}
