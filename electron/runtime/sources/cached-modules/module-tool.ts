// A Python or PowerShell module function as a Tool: what it takes from its cache entry, one
// process per call through runToolProcess, and how either runner's envelope becomes a result.
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import type { Tool, ToolContext, ToolRunResult } from '../../tools/types.ts';
import { SETTINGS_TIMEOUT_PLACE, timedOutText } from '../../tools/result/timeout-message.ts';
import { runToolProcess, type ProcessReading, type ProcessSpec, type ResultBase } from '../process/run-tool-process.ts';
import type { CachedTool } from './cache.ts';
import { readPermission } from './permissions.ts';
import type { SourceContext, SourceEntry } from '../types.ts';

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
    // Python, PowerShell and Open WebUI modules run in their own folder (see each tool.ts).
    relativeTo: [dirname(entry.path)],
    ...(cached.declaredReturnType ? { declaredReturnType: cached.declaredReturnType } : {}),
    ...(cached.timeoutMs ? { timeoutMs: cached.timeoutMs } : {}),
    timeoutMessage: (timeoutMs) => capitalized(timedOutText(timeoutMs, place)),
  };
}

/** What differs between the Python and the PowerShell module runner. */
export interface ModuleRunner {
  /** How the format writes a function's own timeout (`fn.timeout = seconds`). */
  timeoutSetting: string;
  /**
   * One call's process: what to start and how to read it (the envelope follows `marker`), or why
   * it cannot start. `timedOut` is the tool's timeout message.
   */
  prepare(args: Record<string, unknown>, call: ToolContext, marker: string, timedOut: (timeoutMs: number) => string): Promise<({ spec: ProcessSpec } & ProcessReading) | { error: string }>;
}

export function createModuleTool(cached: CachedTool, entry: SourceEntry, secrets: string[], ctx: SourceContext, runner: ModuleRunner): Tool {
  const fields = moduleToolFields(cached, entry, runner.timeoutSetting);
  return {
    ...fields,
    ...(secrets.length > 0 ? { secrets } : {}),
    async execute(args, call) {
      // A per-run marker the tool cannot guess, so its own output cannot be taken for the envelope.
      const marker = `TOOLDESK-RESULT-${randomBytes(12).toString('hex')}`;
      const prepared = await runner.prepare(args, call, marker, fields.timeoutMessage);
      if ('error' in prepared) return { status: 'ERROR', error: prepared.error };
      return runToolProcess(ctx, call, {
        ...prepared,
        toolName: cached.function.name,
        toolDir: dirname(entry.path),
        secrets,
        timeoutMs: fields.timeoutMs ?? ctx.toolTimeoutMs,
      });
    },
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
