// The runner every tool format gets: the real one, plus a note of each process in the trace of
// the call that started it (the Inspect panel's command line, working folder and exit code).
import { traceProcess } from '../../tools/call-trace.ts';
import type { Runner } from '../../runner/types.ts';

export function tracedRunner(runner: Runner): Runner {
  return async (spec) => {
    const result = await runner(spec);
    traceProcess({
      command: spec.command,
      args: [...spec.args],
      cwd: spec.cwd,
      exitCode: result.exitCode,
      signal: result.signal,
      stdout: result.stdout,
      stderr: result.stderr,
      timedOut: result.timedOut,
      aborted: result.aborted,
      sandboxed: result.sandboxed,
      durationMs: result.durationMs,
      ...(result.preloaded?.length ? { preloaded: result.preloaded } : {}),
    });
    return result;
  };
}
