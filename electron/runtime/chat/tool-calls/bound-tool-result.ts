// What a session keeps of a tool result. The whole formatted text already lives in the call's
// `_result` variable (bounded by the variable limits) and the model got `finalText` (bounded by
// the truncation limit), so the message only needs enough to show the call. Unbounded, a 100 MB
// result would be written into the session file more than once and parsed on every open.
import type { ToolResultCut } from '../../../../shared/chat.ts';
import type { ToolExecuteResult } from '../../../../shared/tools.ts';

/** Cap of `data` (as JSON), `formattedText` and `logs` in a stored result, characters. */
export const STORED_RESULT_MAX_CHARS = 64 * 1024;
/** Cap of `finalText`/`error` (what later turns send to the model again), characters. */
export const STORED_FINAL_TEXT_MAX_CHARS = 1024 * 1024;

export interface BoundedToolResult {
  result: ToolExecuteResult;
  /** Original sizes (characters) of what was cut or left out; undefined when nothing was. */
  cut?: ToolResultCut;
}

export interface BoundOptions {
  maxChars?: number;
  maxFinalChars?: number;
}

/** Characters of `data` as JSON; -1 when it cannot be written as JSON (BigInt, cycles). */
function jsonLength(data: unknown): number {
  if (typeof data === 'string') return data.length + 2;
  try {
    return JSON.stringify(data)?.length ?? 0;
  } catch {
    return -1;
  }
}

/** The first `max` characters without splitting a surrogate pair, plus a note of what is missing. */
function cutText(text: string, max: number, where: string): string {
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}\n… [${text.length - end} more characters not kept in the session${where}]`;
}

export function boundToolResult(result: ToolExecuteResult, options: BoundOptions = {}): BoundedToolResult {
  const max = options.maxChars ?? STORED_RESULT_MAX_CHARS;
  const maxFinal = options.maxFinalChars ?? STORED_FINAL_TEXT_MAX_CHARS;
  const where = result.cacheVarResult ? `; the whole text is in variable ${result.cacheVarResult}` : '';
  const cut: ToolResultCut = {};
  const bounded: ToolExecuteResult = { ...result };
  if (result.data !== undefined) {
    const size = jsonLength(result.data);
    // Data that is not JSON would be stored as text of unknown size: leave it out too.
    if (size > max || size < 0) {
      delete bounded.data;
      cut.data = size;
    }
  }
  const texts = [
    ['formattedText', max, where],
    ['logs', max, ''],
    ['finalText', maxFinal, where],
    ['error', maxFinal, ''],
  ] as const;
  for (const [key, limit, note] of texts) {
    const text = result[key];
    if (text === undefined || text.length <= limit) continue;
    bounded[key] = cutText(text, limit, note);
    cut[key] = text.length;
  }
  return Object.keys(cut).length > 0 ? { result: bounded, cut } : { result };
}
