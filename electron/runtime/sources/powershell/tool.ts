// A PowerShell module function as a Tool: each call runs resources/powershell/run_tool.ps1,
// which dot-sources the script, splats the JSON args into the function and prints a JSON
// envelope after a per-run marker line (so the tool's own output cannot be taken for it).
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import type { RunResult } from '../../runner/types.ts';
import { runWarnings } from '../../runner/run-warnings.ts';
import type { Tool, ToolRunResult } from '../../tools/types.ts';
import { findPowerShell, POWERSHELL_FLAGS } from './find-powershell.ts';
import { helperScript } from '../process/helper-scripts.ts';
import type { CachedTool } from '../cached-modules/cache.ts';
import { capWarnings, moduleToolFields, runFailure, stderrTail, type ModuleEnvelope } from '../cached-modules/tool-fields.ts';
import { sandboxSpecFor } from '../process/sandbox-spec-for.ts';
import type { SourceContext, SourceEntry } from '../types.ts';

export function createPowerShellTool(cached: CachedTool, entry: SourceEntry, secrets: string[], ctx: SourceContext): Tool {
  const name = cached.function.name;
  const tool: Tool = {
    ...moduleToolFields(cached, entry),
    ...(secrets.length > 0 ? { secrets } : {}),
    async execute(args, toolCtx) {
      const pwsh = findPowerShell();
      if (!pwsh) return { status: 'ERROR', error: 'PowerShell is not installed: install pwsh (PowerShell 7) to run this tool' };
      const marker = `TOOLDESK-RESULT-${randomBytes(12).toString('hex')}`;
      const timeoutMs = tool.timeoutMs ?? ctx.toolTimeoutMs;
      const run = await ctx.runner({
        command: pwsh,
        args: [...POWERSHELL_FLAGS, '-File', helperScript.powershellRunner(), '-ScriptPath', entry.path, '-FunctionName', name, '-FormatterName', cached.formatter ?? '', '-Marker', marker],
        cwd: dirname(entry.path),
        stdin: JSON.stringify(args),
        env: { ...ctx.env },
        timeoutMs,
        signal: toolCtx.signal,
        maxOutputBytes: ctx.outputCapBytes,
        ...(secrets.length > 0 ? { secrets } : {}),
        sandbox: sandboxSpecFor(ctx, name, dirname(entry.path)),
      });
      return powershellOutcome(run, marker, timeoutMs);
    },
  };
  return tool;
}

/** Splits stdout at the marker: before it are logs, after it the envelope (a UTF-8 BOM stripped). */
export function powershellOutcome(run: RunResult, marker: string, timeoutMs: number): ToolRunResult {
  const stdout = run.stdout.replace(/^\uFEFF/, '');
  const at = stdout.lastIndexOf(marker);
  const printed = at === -1 ? stdout : stdout.slice(0, at);
  const logs = [printed, run.stderr].filter((s) => s.trim()).join('\n').trim();
  const warnings = [...runWarnings(run), ...capWarnings(run)];
  const base = { ...(logs ? { logs } : {}), ...(warnings.length ? { warnings } : {}) };
  const failure = runFailure(run, 'PowerShell', timeoutMs, base);
  if (failure) return failure;
  let envelope: ModuleEnvelope | undefined;
  try {
    envelope = at === -1 ? undefined : (JSON.parse(stdout.slice(at + marker.length).trim().replace(/^\uFEFF/, '')) as ModuleEnvelope);
  } catch {
    envelope = undefined;
  }
  if (!envelope || typeof envelope.success !== 'boolean') {
    const why = run.stdoutTruncated ? 'its output was larger than the output cap' : `it exited with ${run.signal ?? `code ${run.exitCode}`} before reporting a result`;
    return { status: 'ERROR', error: `The tool failed: ${why}. ${stderrTail(run.stderr)}`.trim(), ...base };
  }
  // run_tool.ps1 warns when the result had to be converted to a string.
  const allWarnings = [...warnings, ...(envelope.warnings ?? [])];
  const withWarnings = { ...base, ...(allWarnings.length ? { warnings: allWarnings } : {}) };
  if (!envelope.success) return { status: 'ERROR', error: envelope.error ?? 'The tool failed', data: { traceback: envelope.traceback }, ...withWarnings };
  return { status: 'SUCCESS', data: envelope.result ?? null, ...(envelope.formattedText ? { formattedText: envelope.formattedText } : {}), ...withWarnings };
}
