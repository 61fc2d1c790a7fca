// A PowerShell module function as a Tool: each call runs resources/powershell/run_tool.ps1,
// which dot-sources the script, splats the JSON args into the function and prints a JSON
// envelope after a per-run marker line (so the tool's own output cannot be taken for it).
import { dirname } from 'node:path';
import type { RunResult } from '../../runner/types.ts';
import type { Tool } from '../../tools/types.ts';
import { findPowerShell, POWERSHELL_FLAGS } from './find-powershell.ts';
import { helperScript } from '../process/helper-scripts.ts';
import type { CachedTool } from '../cached-modules/cache.ts';
import { createModuleTool, envelopeResult, moduleFailures, parseEnvelope } from '../cached-modules/module-tool.ts';
import { stderrTail, type ProcessReading } from '../process/run-tool-process.ts';
import type { SourceContext, SourceEntry } from '../types.ts';

export function createPowerShellTool(cached: CachedTool, entry: SourceEntry, secrets: string[], ctx: SourceContext): Tool {
  const name = cached.function.name;
  return createModuleTool(cached, entry, secrets, ctx, {
    timeoutSetting: '`# TOOL_CONFIG: {"timeout": seconds}`',
    async prepare(args, _call, marker, timedOut) {
      const pwsh = findPowerShell();
      if (!pwsh) return { error: 'PowerShell is not installed: install pwsh (PowerShell 7) to run this tool' };
      const spec = {
        command: pwsh,
        args: [...POWERSHELL_FLAGS, '-File', helperScript.powershellRunner(), '-ScriptPath', entry.path, '-FunctionName', name, '-FormatterName', cached.formatter ?? '', '-Marker', marker],
        cwd: dirname(entry.path),
        stdin: JSON.stringify(args),
        env: { ...ctx.env },
      };
      return { spec, ...powershellReading(marker, timedOut) };
    },
  });
}

/** Splits stdout at the marker: before it are logs, after it the envelope (UTF-8 BOMs stripped). */
export function powershellReading(marker: string, timedOut: (timeoutMs: number) => string): ProcessReading {
  const split = (run: RunResult) => {
    const stdout = run.stdout.replace(/^\uFEFF/, '');
    const at = stdout.lastIndexOf(marker);
    return { printed: at === -1 ? stdout : stdout.slice(0, at), envelope: at === -1 ? undefined : stdout.slice(at + marker.length).trim().replace(/^\uFEFF/, '') };
  };
  return {
    ...moduleFailures('PowerShell', timedOut),
    logs: (run) => [split(run).printed, run.stderr].filter((s) => s.trim()).join('\n').trim(),
    read: (run, base) => {
      const why = run.stdoutTruncated ? 'its output was larger than the output cap' : `it exited with ${run.signal ?? `code ${run.exitCode}`} before reporting a result`;
      const envelope = parseEnvelope(split(run).envelope);
      // A Format- function that wrote nothing leaves Out-String's empty text: format the data instead.
      if (envelope?.formattedText === '') delete envelope.formattedText;
      return envelopeResult(envelope, base, `The tool failed: ${why}. ${stderrTail(run.stderr)}`.trim());
    },
  };
}
