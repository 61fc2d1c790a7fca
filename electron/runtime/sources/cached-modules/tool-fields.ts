// What a Python or PowerShell module function's Tool takes from its cache entry, and how either
// runner's envelope becomes a result.
import type { Tool, ToolRunResult } from '../../tools/types.ts';
import { SETTINGS_TIMEOUT_PLACE, timedOutText } from '../../tools/timeout-message.ts';
import type { ProcessReading, ResultBase } from '../process/run-tool-process.ts';
import type { CachedTool } from './cache.ts';
import { readPermission } from './permissions.ts';
import type { SourceEntry } from '../types.ts';

/** The JSON both run_tool.py and run_tool.ps1 report a call with. */
export interface ModuleEnvelope {
  success: boolean;
  result?: unknown;
  error?: string;
  traceback?: string;
  formattedText?: string;
  warnings?: string[];
}

export type ModuleToolFields = Omit<Tool, 'execute'> & { timeoutMessage: (timeoutMs: number) => string };

/**
 * `timeoutSetting` is how the format writes a function's own timeout (`fn.timeout = seconds`):
 * the timeout message names it, and the settings limit where the function sets none.
 */
export function moduleToolFields(cached: CachedTool, entry: SourceEntry, timeoutSetting: string): ModuleToolFields {
  const fn = cached.function;
  const place = `${entry.path} (${timeoutSetting})${cached.timeoutMs ? '' : ` or ${SETTINGS_TIMEOUT_PLACE}`}`;
  return {
    definition: { type: 'function', function: { name: fn.name, description: fn.description ?? '', parameters: fn.parameters ?? { type: 'object', properties: {} } } },
    permission: readPermission(cached as unknown as Record<string, unknown>).permission,
    source: { format: entry.format, file: entry.path, root: entry.root, ...(cached.line ? { line: cached.line } : {}) },
    ...(cached.declaredReturnType ? { declaredReturnType: cached.declaredReturnType } : {}),
    ...(cached.timeoutMs ? { timeoutMs: cached.timeoutMs } : {}),
    timeoutMessage: (timeoutMs) => capitalized(timedOutText(timeoutMs, place)),
  };
}

/** How a run of `interpreter` that ended before the envelope is told. */
export function moduleFailures(interpreter: string, timedOut: (timeoutMs: number) => string): Pick<ProcessReading, 'notStarted' | 'aborted' | 'timedOut'> {
  return { notStarted: (why) => `Could not start ${interpreter}: ${why}`, aborted: 'Aborted', timedOut };
}

/** The envelope's JSON text, or undefined when it is missing or not an envelope. */
export function parseEnvelope(text: string | undefined): ModuleEnvelope | undefined {
  if (!text) return undefined;
  try {
    const envelope = JSON.parse(text) as ModuleEnvelope;
    return typeof envelope?.success === 'boolean' ? envelope : undefined;
  } catch {
    return undefined;
  }
}

/** `missing` explains a run that ended without an envelope. The traceback joins the logs. */
export function envelopeResult(envelope: ModuleEnvelope | undefined, base: ResultBase, missing: string): ToolRunResult {
  if (!envelope) return { status: 'ERROR', error: missing, ...base };
  const warnings = [...(base.warnings ?? []), ...(envelope.warnings ?? [])];
  const withWarnings = { ...base, ...(warnings.length ? { warnings } : {}) };
  if (!envelope.success) {
    const logs = [envelope.traceback?.trim(), base.logs].filter(Boolean).join('\n');
    return { status: 'ERROR', error: envelope.error ?? 'The tool failed', data: { traceback: envelope.traceback }, ...withWarnings, ...(logs ? { logs } : {}) };
  }
  const formatted = typeof envelope.formattedText === 'string' ? { formattedText: envelope.formattedText } : {};
  return { status: 'SUCCESS', data: envelope.result ?? null, ...formatted, ...withWarnings };
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
