// A tool result as a session file holds it, read into the union on `status`. Files written before
// the union kept every field optional (`finalText` could be missing, an ERROR without `error`, a
// field of another status left over): each is read as the status it names, with what that status
// needs filled in from what is there, and fields of other statuses dropped.
import type { ToolExecuteResult, ToolExecuteStatus } from '../../../../shared/tools.ts';

type AnyKey = keyof ToolExecuteResult;

const COMMON: readonly AnyKey[] = ['toolName', 'callId', 'durationMs'];
const RUN: readonly AnyKey[] = ['data', 'isTruncated', 'truncation', 'cacheVarResult', 'cacheVarArgs', 'logs', 'warnings', 'inspection', 'editedArgs'];
/** The fields each status keeps besides `status` and `finalText`. */
const OWN: Record<ToolExecuteStatus, readonly AnyKey[]> = {
  SUCCESS: [...COMMON, ...RUN, 'formattedText', 'images', 'app'],
  ERROR: [...COMMON, ...RUN, 'error', 'cancelled'],
  EXECUTION_REJECTED: [...COMMON, 'rejectReason', 'warnings', 'inspection', 'editedArgs', 'cancelled'],
  RESULT_REJECTED: [...COMMON, 'rejectReason', 'warnings', 'inspection', 'editedArgs', 'cancelled'],
  NOT_FOUND: [...COMMON, 'error'],
};

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * `content`: the tool message's own text (what the model saw), the last resort for `finalText`.
 * Never throws: anything that is not a result reads as an ERROR saying so.
 */
export function toolResultFromFile(value: unknown, content: unknown): ToolExecuteResult {
  const raw = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const status: ToolExecuteStatus = typeof raw.status === 'string' && Object.hasOwn(OWN, raw.status) ? (raw.status as ToolExecuteStatus) : 'ERROR';
  const finalText =
    text(raw.finalText) ?? text(content) ?? text(raw.error) ?? text(raw.rejectReason) ?? text(raw.formattedText) ?? (value ? '' : 'The result of this call was not kept.');
  const result: Record<string, unknown> = { status, finalText };
  for (const key of OWN[status]) if (raw[key] !== undefined) result[key] = raw[key];
  if ((status === 'ERROR' || status === 'NOT_FOUND') && typeof result.error !== 'string') result.error = finalText;
  if ((status === 'EXECUTION_REJECTED' || status === 'RESULT_REJECTED') && typeof result.rejectReason !== 'string') result.rejectReason = '';
  return result as unknown as ToolExecuteResult;
}
