// Reads a JSON file and turns a syntax error into a Diagnostic with line and column.
import { readTextFile, readTextFileSync, ToolSourceTooLargeError } from './read-text-file.ts';
import type { Diagnostic } from '../../../../shared/tools.ts';

export type JsonFileResult = { ok: true; value: unknown; text: string } | { ok: false; diagnostic: Diagnostic };

/** Line/column (1-based) of a character offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Where V8's JSON.parse message says the error is, when it says. */
function errorOffset(message: string, text: string): number | undefined {
  const position = /position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  if (/Unexpected end of JSON input/.test(message)) return text.length;
  return undefined;
}

export function parseJsonText(text: string, file: string): JsonFileResult {
  // A UTF-8 BOM is common in files saved by Windows editors; JSON.parse rejects it.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body), text: body };
  } catch (error) {
    const message = (error as Error).message;
    const offset = errorOffset(message, body);
    const where = offset === undefined ? {} : lineColumnAt(body, offset);
    return {
      ok: false,
      diagnostic: {
        severity: 'error',
        file,
        ...where,
        message: `Invalid JSON: ${message}`,
        hint: 'Fix the JSON syntax (a trailing comma or a missing quote is the usual cause).',
        code: 'invalid-json',
      },
    };
  }
}

const unreadable = (file: string, error: unknown): JsonFileResult => ({
  ok: false,
  diagnostic: { severity: 'error', file, message: `Cannot read: ${(error as Error).message}`, hint: error instanceof ToolSourceTooLargeError ? error.hint : 'Make it a regular, readable text file.', code: 'unreadable' },
});

/** `maxBytes`: the tool source size limit (settings.limits.toolSourceMaxBytes). */
export async function readJsonFile(file: string, maxBytes?: number): Promise<JsonFileResult> {
  let text: string;
  try {
    text = await readTextFile(file, maxBytes);
  } catch (error) {
    return unreadable(file, error);
  }
  return parseJsonText(text, file);
}

/** readJsonFile for the many small files of a start (see readTextFileSync). */
export function readJsonFileSync(file: string): JsonFileResult {
  let text: string;
  try {
    text = readTextFileSync(file);
  } catch (error) {
    return unreadable(file, error);
  }
  return parseJsonText(text, file);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
