// A Python module function as a Tool: each call runs resources/python/run_tool.py, which
// imports the module and writes a JSON envelope to fd 3.
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import type { RunResult } from '../../runner/types.ts';
import { runWarnings } from '../../runner/run-warnings.ts';
import type { Tool, ToolRunResult } from '../../tools/types.ts';
import { helperScript } from '../process/helper-scripts.ts';
import type { CachedTool } from '../cached-modules/cache.ts';
import { capWarnings, moduleToolFields, runFailure, stderrTail, type ModuleEnvelope } from '../cached-modules/tool-fields.ts';
import { resolvePythonCommand } from '../process/resolve-python-command.ts';
import { sandboxSpecFor } from '../process/sandbox-spec-for.ts';
import type { SourceContext, SourceEntry } from '../types.ts';

export function createPythonTool(cached: CachedTool, entry: SourceEntry, secrets: string[], ctx: SourceContext): Tool {
  const name = cached.function.name;
  const tool: Tool = {
    ...moduleToolFields(cached, entry),
    ...(secrets.length > 0 ? { secrets } : {}),
    async execute(args, toolCtx) {
      const python = await resolvePythonCommand(ctx.pythonPath, ctx.runner);
      const marker = `TOOLDESK-RESULT-${randomBytes(12).toString('hex')}`;
      const run = await ctx.runner({
        command: python,
        args: [helperScript.pythonRunner(), entry.path, name, marker],
        cwd: dirname(entry.path),
        stdin: JSON.stringify(args),
        env: { ...ctx.env, PYTHONIOENCODING: 'utf-8', PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' },
        timeoutMs: tool.timeoutMs ?? ctx.toolTimeoutMs,
        signal: toolCtx.signal,
        maxOutputBytes: ctx.outputCapBytes,
        resultChannel: true,
        ...(secrets.length > 0 ? { secrets } : {}),
        sandbox: sandboxSpecFor(ctx, name, dirname(entry.path)),
        onStdout: (text) => toolCtx.onUpdate({ text }),
        python: { kind: 'module', file: entry.path, function: name, marker },
      });
      return envelopeToResult(run, tool.timeoutMs ?? ctx.toolTimeoutMs, marker);
    },
  };
  return tool;
}

/**
 * Turns the runner's outcome and the envelope into what ToolExecutor expects. The envelope comes
 * on fd 3, or (where fd 3 is not inherited, as on Windows) on stdout after the per-run marker.
 */
export function envelopeToResult(run: RunResult, timeoutMs: number, marker: string): ToolRunResult {
  const at = run.channel?.trim() ? -1 : run.stdout.lastIndexOf(`\n${marker}\n`);
  const channelText = at === -1 ? run.channel : run.stdout.slice(at + marker.length + 2);
  const printed = at === -1 ? run.stdout : run.stdout.slice(0, at);
  const logs = [printed, run.stderr].filter((s) => s.trim()).join('\n');
  const warnings = [...runWarnings(run), ...capWarnings(run)];
  const base = { ...(logs ? { logs } : {}), ...(warnings.length ? { warnings } : {}) };
  const failure = runFailure(run, 'Python', timeoutMs, base);
  if (failure) return failure;
  const line = channelText?.trim().split('\n').at(-1);
  let envelope: ModuleEnvelope | undefined;
  try {
    envelope = line ? (JSON.parse(line) as ModuleEnvelope) : undefined;
  } catch {
    envelope = undefined;
  }
  if (!envelope || typeof envelope.success !== 'boolean') {
    const why = run.channelTruncated ? 'its result was larger than the output cap' : `it exited with ${run.signal ?? `code ${run.exitCode}`} before reporting a result`;
    return { status: 'ERROR', error: `The tool failed: ${why}. ${stderrTail(run.stderr)}`.trim(), ...base };
  }
  const allWarnings = [...warnings, ...(envelope.warnings ?? [])];
  const withWarnings = { ...base, ...(allWarnings.length ? { warnings: allWarnings } : {}) };
  if (!envelope.success) {
    const traceLogs = [envelope.traceback?.trim(), logs].filter(Boolean).join('\n');
    return { status: 'ERROR', error: envelope.error ?? 'The tool failed', data: { traceback: envelope.traceback }, ...withWarnings, ...(traceLogs ? { logs: traceLogs } : {}) };
  }
  return { status: 'SUCCESS', data: envelope.result, ...(envelope.formattedText !== undefined ? { formattedText: envelope.formattedText } : {}), ...withWarnings };
}
