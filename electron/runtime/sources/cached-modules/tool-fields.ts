// What a Python or PowerShell module function's Tool takes from its cache entry, and how either
// runner's outcome fails before there is an envelope to read.
import type { RunResult } from '../../runner/types.ts';
import type { Tool, ToolRunResult } from '../../tools/types.ts';
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

export function moduleToolFields(cached: CachedTool, entry: SourceEntry): Omit<Tool, 'execute'> {
  const fn = cached.function;
  return {
    definition: { type: 'function', function: { name: fn.name, description: fn.description ?? '', parameters: fn.parameters ?? { type: 'object', properties: {} } } },
    permission: readPermission(cached as unknown as Record<string, unknown>).permission,
    source: { format: entry.format, file: entry.path, root: entry.root, ...(cached.line ? { line: cached.line } : {}) },
    ...(cached.declaredReturnType ? { declaredReturnType: cached.declaredReturnType } : {}),
    ...(cached.timeoutMs ? { timeoutMs: cached.timeoutMs } : {}),
  };
}

/** Says when the output cap cut stdout or stderr, and whether that stopped the tool. */
export function capWarnings(run: RunResult): string[] {
  if (!run.stdoutTruncated && !run.stderrTruncated) return [];
  return [`Output over the cap was ${run.capAction === 'killed' ? 'cut and the tool stopped' : 'cut'}.`];
}

/** The last lines of stderr, for an error that has nothing better to show. */
export function stderrTail(stderr: string): string {
  return stderr.trim().split('\n').slice(-5).join('\n');
}

/** The run ended before the tool could report: it did not start, was aborted or timed out. */
export function runFailure(run: RunResult, interpreter: string, timeoutMs: number, base: Partial<ToolRunResult>): ToolRunResult | undefined {
  if (run.spawnError) return { ...base, status: 'ERROR', error: `Could not start ${interpreter}: ${run.spawnError}` };
  if (run.aborted) return { ...base, status: 'ERROR', error: 'Aborted' };
  if (run.timedOut) return { ...base, status: 'ERROR', error: `Timed out after ${Math.round(timeoutMs / 1000)} s; the tool and its child processes were stopped` };
  return undefined;
}
