// The result-shaping steps of execute(): data → formattedText (formatForLLM) → the truncated text
// the model sees, and the hint that tells it where the rest is.
import type { TruncationInfo } from '../../../../shared/tools.ts';
import { countCodePoints } from '../../base/code-points.ts';
import { errorText } from '../run-tool.ts';
import { truncateContent } from './truncate-content.ts';
import type { Tool, ToolRunResult } from '../types.ts';
import { READ_VAR } from '../variables/vars-tools.ts';

export const NO_OUTPUT_TEXT = '(no output: the tool finished without returning anything)';

export interface Formatted {
  text: string;
  warning?: string;
}

/** The tool's own formattedText wins, then its formatForLLM, then strings as-is, else JSON. */
export function formatOutput(tool: Tool, run: ToolRunResult, args: Record<string, unknown>): Formatted {
  if (typeof run.formattedText === 'string') return { text: run.formattedText };
  if (tool.formatForLLM) {
    try {
      return { text: String(tool.formatForLLM(run.data, args)) };
    } catch (error) {
      const fallback = defaultFormat(run.data);
      return { text: fallback, warning: `formatForLLM threw (${errorText(error)}); used the default format.` };
    }
  }
  return { text: defaultFormat(run.data) };
}

export function defaultFormat(data: unknown): string {
  if (data === undefined || data === null) return '';
  if (typeof data === 'string') return data;
  try {
    return JSON.stringify(data) ?? String(data);
  } catch {
    return String(data);
  }
}

export interface Truncated {
  text: string;
  info: TruncationInfo;
  /** Where the omitted part starts, when known (head+tail truncation). */
  headLength?: number;
  limit: number;
  warning?: string;
}

/**
 * SKIP_EXTERNAL_TRUNCATE → untouched; a custom truncateForLLM → used; otherwise head+tail at
 * `limit` (≤ 0 means none).
 */
export function truncateOutput(tool: Tool, text: string, args: Record<string, unknown>, limit: number): Truncated {
  if (tool.SKIP_EXTERNAL_TRUNCATE) return untouched(text, limit);
  if (tool.truncateForLLM) {
    let out: string;
    try {
      out = String(tool.truncateForLLM(text, limit > 0 ? { ...args, limit } : args));
    } catch (error) {
      return withDefault(text, limit, `truncateForLLM threw (${errorText(error)}); used the default truncation.`);
    }
    if (out === text) return untouched(text, limit);
    const originalLength = countCodePoints(text);
    const keptLength = countCodePoints(out);
    const info = { truncated: true, originalLength, keptLength, omitted: Math.max(0, originalLength - keptLength) };
    return { text: out, info, limit };
  }
  return withDefault(text, limit);
}

function untouched(text: string, limit: number): Truncated {
  const length = countCodePoints(text);
  return { text, info: { truncated: false, originalLength: length, keptLength: length, omitted: 0 }, limit };
}

function withDefault(text: string, limit: number, warning?: string): Truncated {
  const cut = truncateContent(text, limit);
  const info = { truncated: cut.truncated, originalLength: cut.originalLength, keptLength: cut.keptLength, omitted: cut.omitted };
  const result: Truncated = { text: cut.text, info, headLength: cut.headLength, limit };
  if (warning) result.warning = warning;
  return result;
}

/** The note appended to a truncated result: how much was cut and how to get it. */
export function truncationHint(cut: Truncated, resultVar: string | undefined): string {
  const { originalLength, keptLength, omitted } = cut.info;
  const head = `[Output truncated: showing ${keptLength} of ${originalLength} characters (${omitted} omitted).`;
  if (!resultVar) return `${head} The full output was not stored; narrow the request or pass limit: -1 for everything.]`;
  const start = cut.headLength ?? 0;
  const length = Math.max(1, Math.min(cut.limit > 0 ? cut.limit : omitted, omitted || keptLength));
  const read = `${READ_VAR} ${JSON.stringify({ name: resultVar, start, length })}`;
  return `${head} The full output is in variable ${resultVar}: pass it to a tool as $VAR_REF{{${resultVar}}}, or read the omitted part with ${read}.]`;
}
