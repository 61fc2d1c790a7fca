// A Python module function as a Tool: each call runs resources/python/run_tool.py, which
// imports the module and writes a JSON envelope to fd 3.
import { dirname } from 'node:path';
import type { RunResult } from '../../runner/types.ts';
import type { Tool } from '../../tools/types.ts';
import { helperScript } from '../process/helper-scripts.ts';
import type { CachedTool } from '../cached-modules/cache.ts';
import { createModuleTool, envelopeResult, moduleFailures, parseEnvelope } from '../cached-modules/module-tool.ts';
import { PYTHON_HELPER_FLAGS } from '../process/python-flags.ts';
import { folderPreloadSet } from '../../runner/warm-python/preload-set.ts';
import { resolvePythonCommand } from '../process/resolve-python-command.ts';
import { stderrTail, type ProcessReading } from '../process/run-tool-process.ts';
import type { SourceContext, SourceEntry } from '../types.ts';

export function createPythonTool(cached: CachedTool, entry: SourceEntry, secrets: string[], ctx: SourceContext): Tool {
  const name = cached.function.name;
  return createModuleTool(cached, entry, secrets, ctx, {
    timeoutSetting: `\`${name}.timeout = seconds\``,
    async prepare(args, call, marker, timedOut) {
      const python = await resolvePythonCommand(ctx.pythonPath, ctx.runner);
      const spec = {
        command: python,
        args: [...PYTHON_HELPER_FLAGS, helperScript.pythonRunner(), entry.path, name, marker],
        cwd: dirname(entry.path),
        stdin: JSON.stringify(args),
        env: { ...ctx.env, PYTHONIOENCODING: 'utf-8', PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' },
        resultChannel: true,
        onStdout: (text: string) => call.onUpdate({ text }),
        python: { kind: 'module' as const, file: entry.path, function: name, marker, preload: folderPreloadSet(dirname(entry.path), ctx) },
      };
      return { spec, ...pythonReading(marker, timedOut) };
    },
  });
}

/**
 * Reads run_tool.py's outcome. The envelope comes on fd 3, or (where fd 3 is not inherited, as
 * on Windows) on stdout after the per-run marker; what the tool printed is logs.
 */
export function pythonReading(marker: string, timedOut: (timeoutMs: number) => string): ProcessReading {
  const split = (run: RunResult) => {
    const at = run.channel?.trim() ? -1 : run.stdout.lastIndexOf(`\n${marker}\n`);
    return at === -1 ? { printed: run.stdout, channel: run.channel } : { printed: run.stdout.slice(0, at), channel: run.stdout.slice(at + marker.length + 2) };
  };
  return {
    ...moduleFailures('Python', timedOut),
    logs: (run) => [split(run).printed, run.stderr].filter((s) => s.trim()).join('\n'),
    read: (run, base) => {
      const why = run.channelTruncated ? 'its result was larger than the output cap' : `it exited with ${run.signal ?? `code ${run.exitCode}`} before reporting a result`;
      const envelope = parseEnvelope(split(run).channel?.trim().split('\n').at(-1));
      return envelopeResult(envelope, base, `The tool failed: ${why}. ${stderrTail(run.stderr)}`.trim());
    },
  };
}
