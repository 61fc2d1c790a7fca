// One process call for the script formats (Python and PowerShell modules, script folders,
// three-layer tools): spec → run → the failures that end a run before the tool could report, in
// the format's own words; what differs per format is the spec, its logs and how it reads a run.
import type { RunResult, RunSpec } from '../../runner/types.ts';
import { runWarnings } from '../../runner/run-warnings.ts';
import type { ToolContext, ToolRunResult } from '../../tools/types.ts';
import type { SourceContext } from '../types.ts';
import { sandboxSpecFor } from './sandbox-spec-for.ts';

/**
 * How much later than the executor's deadline the runner's own limit stops the process. The
 * executor owns the timeout; this only catches a run the deadline's abort somehow did not stop.
 */
export const RUNNER_BACKSTOP_MS = 2000;

/** What a format starts; the shared fields (limit, signal, cap, secrets, sandbox) are added here. */
export type ProcessSpec = Omit<RunSpec, 'timeoutMs' | 'signal' | 'maxOutputBytes' | 'secrets' | 'sandbox'>;

/** The logs and warnings of a run, spread into every result the format makes of it. */
export type ResultBase = Pick<ToolRunResult, 'logs' | 'warnings'>;

/** How a format reads a finished run and says why a run ended before the tool could report. */
export interface ProcessReading {
  /** What the tool printed that is not its result. */
  logs: (run: RunResult) => string;
  /** A run that ended on its own (exited, or was cut at the output cap). */
  read: (run: RunResult, base: ResultBase) => ToolRunResult;
  notStarted: (why: string) => string;
  aborted: string;
  /** The tool's timeoutMessage: the same text the executor gives when its deadline passes. */
  timedOut: (timeoutMs: number) => string;
}

export interface ToolProcess extends ProcessReading {
  spec: ProcessSpec;
  /** The tool's registered name (its per-tool sandbox mode) and folder (readable in the sandbox). */
  toolName: string;
  toolDir: string;
  network?: boolean;
  /** More paths the call reads, bound read-only into the sandbox (an Open WebUI call's `__files__`). */
  readOnlyPaths?: string[];
  secrets?: string[];
  /** The tool's own timeout, ms: the runner's limit when the call comes without the executor's deadline. */
  timeoutMs: number;
}

/** Contract: never throws; every failure is a result. */
export async function runToolProcess(ctx: SourceContext, call: ToolContext, tool: ToolProcess): Promise<ToolRunResult> {
  const deadlineMs = call.timeoutMs ?? tool.timeoutMs;
  // A call with a folder of its own (a schedule's --cwd) runs there: where the format would start
  // in the working folder, and as the sandbox's writable work folder.
  const workDir = call.workingDir ?? ctx.workingDir;
  const sandbox = sandboxSpecFor(ctx, tool.toolName, tool.toolDir, tool.network, workDir);
  if (tool.readOnlyPaths?.length) sandbox.readOnlyPaths = [...(sandbox.readOnlyPaths ?? []), ...tool.readOnlyPaths];
  const run = await ctx.runner({
    ...tool.spec,
    ...(tool.spec.cwd === ctx.workingDir ? { cwd: workDir } : {}),
    timeoutMs: call.timeoutMs !== undefined ? call.timeoutMs + RUNNER_BACKSTOP_MS : tool.timeoutMs,
    signal: call.signal,
    maxOutputBytes: ctx.outputCapBytes,
    ...(tool.secrets?.length ? { secrets: tool.secrets } : {}),
    sandbox,
    // What the tool says on stderr while it runs is its progress (stdout is its result).
    onStderr: tool.spec.onStderr ?? ((chunk: string) => call.onUpdate({ text: chunk })),
  });
  // Stopped by the executor's deadline: a timeout, whichever timer the runner saw fire.
  const byDeadline = run.aborted && isTimeout(call.signal.reason);
  return processResult(byDeadline ? { ...run, aborted: false, timedOut: true } : run, tool, deadlineMs);
}

/** Maps one run onto a tool result (pure: the formats' tests call it with made-up runs). */
export function processResult(run: RunResult, reading: ProcessReading, timeoutMs: number): ToolRunResult {
  const logs = reading.logs(run);
  const warnings = [...runWarnings(run), ...capWarnings(run)];
  const base: ResultBase = { ...(logs ? { logs } : {}), ...(warnings.length ? { warnings } : {}) };
  if (run.spawnError) return { ...base, status: 'ERROR', error: reading.notStarted(run.spawnError) };
  if (run.timedOut) return { ...base, status: 'ERROR', error: reading.timedOut(timeoutMs) };
  if (run.aborted) return { ...base, status: 'ERROR', error: reading.aborted };
  return reading.read(run, base);
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

function isTimeout(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
}
