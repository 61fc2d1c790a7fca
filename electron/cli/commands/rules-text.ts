// How rules and tool sets read on the terminal, and the JSON-object option the commands share.
import type { RuleMatcher, ToolRule } from '../../../shared/permissions.ts';
import { UsageError } from '../command.ts';

export function describeRule(rule: ToolRule): string {
  const where = (rule.where ?? []).map(describeMatcher);
  return `${rule.action} ${rule.tool}${where.length ? ` where ${where.join(' and ')}` : ''}${rule.reason ? ` — ${rule.reason}` : ''}${rule.scope === 'chat' ? ' (chat only)' : ''}`;
}

export function describeMatcher(m: RuleMatcher): string {
  const path = m.path ?? '(any value)';
  if (m.regex !== undefined) return `${path} =~ /${m.regex}/`;
  if (m.prefix !== undefined) return `${path} ^= ${m.prefix}`;
  if (m.equals !== undefined) return `${path} == ${JSON.stringify(m.equals)}`;
  return `${path} ~ ${m.glob}`;
}

export { describeSet as describeToolSet } from '../../runtime/chat/toolset-text.ts';

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
