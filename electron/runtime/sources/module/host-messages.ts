// Reading what a tool host sends: lines with a size cap, and every message checked before the
// app uses it (the host runs user code, so anything it says may be forged or malformed).
import type { Diagnostic } from '../../../../shared/tools.ts';
import type { ManagedProcess } from '../../runner/spawn-managed.ts';
import type { ToolRunResult } from '../../tools/types.ts';
import { MAX_LINE_BYTES, type FromHost, type HostToolInfo } from './host-protocol.ts';

/** Splits stdout into lines; a line over the cap is a protocol violation (`onOverflow`). */
export function readLines(stream: ManagedProcess['stdout'], onLine: (line: string) => void, onOverflow: () => void, maxLineBytes = MAX_LINE_BYTES): void {
  let parts: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
      parts.push(chunk.subarray(start, i));
      const line = Buffer.concat(parts).toString('utf8');
      parts = [];
      size = 0;
      start = i + 1;
      onLine(line);
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      size += chunk.length - start;
      if (size > maxLineBytes) {
        parts = [];
        size = 0;
        onOverflow();
      }
    }
  });
}

export function parse(line: string): FromHost | null {
  try {
    const value = JSON.parse(line) as unknown;
    return isObject(value) && typeof value.t === 'string' ? (value as unknown as FromHost) : null;
  } catch {
    return null;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function validToolInfo(info: unknown): info is HostToolInfo {
  if (!isObject(info) || typeof info.key !== 'string' || !isObject(info.definition)) return false;
  const fn = info.definition.function;
  return isObject(fn) && typeof fn.name === 'string' && fn.name.length > 0 && isObject(fn.parameters);
}

export function validDiagnostic(d: unknown): d is Diagnostic {
  return isObject(d) && typeof d.file === 'string' && typeof d.message === 'string' && ['error', 'warning', 'info'].includes(d.severity as string);
}

/** Only the fields a result may have, with their types; anything else is dropped. */
export function checkedResult(value: unknown): ToolRunResult {
  if (!isObject(value)) return { status: 'ERROR', error: 'the tool host sent a malformed result' };
  const result: ToolRunResult = {};
  if (value.status === 'SUCCESS' || value.status === 'ERROR') result.status = value.status;
  if ('data' in value) result.data = value.data;
  if (typeof value.error === 'string') result.error = value.error;
  if (typeof value.formattedText === 'string') result.formattedText = value.formattedText;
  if (typeof value.logs === 'string') result.logs = value.logs;
  if (Array.isArray(value.warnings)) result.warnings = value.warnings.filter((w): w is string => typeof w === 'string');
  return result;
}

export function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ').slice(-600);
}
