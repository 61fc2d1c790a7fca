// Which call a process belongs to. The runner is shared by every session and call, so the
// executor runs each tool inside its own trace (AsyncLocalStorage follows the awaits) and the
// source context's runner adds what it started to the trace of the call that asked for it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { McpCallTrace, ToolCallInspection, ToolHostTrace, ToolProcessTrace } from '../../../shared/tool-inspection.ts';

export interface CallTrace {
  processes: ToolProcessTrace[];
  mcp?: McpCallTrace;
  toolHost?: ToolHostTrace;
}

/** The Inspect view's record of a call: resolved arguments, references, what its trace saw, timings. */
export function callInspection(resolvedArgs: Record<string, unknown>, varRefs: ToolCallInspection['varRefs'], timings: ToolCallInspection['timings'], trace?: CallTrace): ToolCallInspection {
  if (!trace?.mcp && !trace?.toolHost) return { resolvedArgs, varRefs, processes: trace?.processes ?? [], timings };
  return { resolvedArgs, varRefs, processes: trace.processes, ...(trace.mcp ? { mcp: trace.mcp } : {}), ...(trace.toolHost ? { toolHost: trace.toolHost } : {}), timings };
}

/** Bound per stream kept in a trace; the rest is summarised in `cut`. */
export const TRACE_OUTPUT_MAX_CHARS = 64 * 1024;

const storage = new AsyncLocalStorage<CallTrace>();

/** Runs `work` with `trace` as the current call's trace. */
export function withCallTrace<T>(trace: CallTrace, work: () => T): T {
  return storage.run(trace, work);
}

/**
 * Gives the current call its MCP record. The source keeps filling it (answer, log lines) until
 * the call ends; the executor reads it after the run.
 */
export function traceMcpCall(mcp: McpCallTrace): void {
  const trace = storage.getStore();
  if (trace) trace.mcp = mcp;
}

/** Notes the module tool host that ran the current call and what the module printed (bounded here). */
export function traceToolHost(host: ToolHostTrace): void {
  const trace = storage.getStore();
  if (!trace) return;
  const { text: stdout, cut: cutOut } = boundText(host.stdout);
  const { text: stderr, cut: cutErr } = boundText(host.stderr);
  const cut = { ...host.cut };
  if (cutOut) cut.stdout = (cut.stdout ?? 0) + cutOut;
  if (cutErr) cut.stderr = (cut.stderr ?? 0) + cutErr;
  trace.toolHost = { ...host, stdout, stderr, ...(cut.stdout || cut.stderr ? { cut } : {}) };
}

function boundText(text: string): { text: string; cut: number } {
  return text.length > TRACE_OUTPUT_MAX_CHARS ? { text: text.slice(0, TRACE_OUTPUT_MAX_CHARS), cut: text.length - TRACE_OUTPUT_MAX_CHARS } : { text, cut: 0 };
}

/** The current call's trace, to run work that a call asked for elsewhere (a module's exec) inside it. */
export function currentCallTrace(): CallTrace | undefined {
  return storage.getStore();
}

/** Adds a process to the current call's trace; nothing happens outside a call (discovery, parsing). */
export function traceProcess(process: ToolProcessTrace): void {
  const trace = storage.getStore();
  if (!trace) return;
  const cut: NonNullable<ToolProcessTrace['cut']> = {};
  const bounded = { ...process };
  for (const key of ['stdout', 'stderr'] as const) {
    if (bounded[key].length > TRACE_OUTPUT_MAX_CHARS) {
      cut[key] = bounded[key].length - TRACE_OUTPUT_MAX_CHARS;
      bounded[key] = bounded[key].slice(0, TRACE_OUTPUT_MAX_CHARS);
    }
  }
  if (cut.stdout !== undefined || cut.stderr !== undefined) bounded.cut = cut;
  trace.processes.push(bounded);
}
