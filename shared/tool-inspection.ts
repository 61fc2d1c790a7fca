// What the Inspect panel of a tool call shows: exactly what was sent and received. The runtime
// records it per call (the executor's timestamps, the runner's command line and exit code, the MCP
// request and answer, the module host's output) and carries it on the call's result, so a
// reopened session can still be inspected.

/** Milliseconds spent in each phase of one call. */
export interface ToolCallTimings {
  /** From the call's arrival to its approval question (or its run when none was asked). */
  queuedMs: number;
  /** Waiting for the user to approve running it (0 when nobody was asked). */
  approvalMs: number;
  /** The tool's own run (the duration badge shows this). */
  runningMs: number;
  /** format → truncate → cache → hint. */
  formattingMs: number;
  /** Waiting for the user to approve the result (0 when nobody was asked). */
  resultApprovalMs: number;
}

/** One process a script-format tool started for this call (the runner's spec and outcome). */
export interface ToolProcessTrace {
  command: string;
  args: string[];
  cwd: string;
  exitCode: number | null;
  signal: string | null;
  /** Bounded (see the session's result bound); secrets already redacted by the runner. */
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  sandboxed: boolean;
  durationMs: number;
  /** A warm Python run: the modules its fork-server had imported before forking it. */
  preloaded?: string[];
  /** Characters cut from stdout/stderr to keep the session small. */
  cut?: { stdout?: number; stderr?: number };
}

/** A `$VAR_REF{{name}}` the call's arguments used. */
export interface VarRefUse {
  /** The top-level argument it appeared in. */
  arg: string;
  /** The variable's name (without the slice part). */
  name: string;
  /** Characters the reference expanded to (-1 when unknown). */
  chars: number;
}

/** One line of an MCP server's log that arrived while a call ran. */
export interface McpLogLine {
  /** Milliseconds after the call began (starting the server included). */
  atMs: number;
  /** `stderr` of a stdio server, a `notifications/message` (`log`), this call's own `progress`, or a note of ours. */
  source: 'stderr' | 'log' | 'progress' | 'note';
  text: string;
  /**
   * Other calls to the same server were running when it arrived. MCP does not say which request a
   * log line belongs to, so such a line may be theirs (progress lines are matched by token: never shared).
   */
  shared?: true;
}

/** What an MCP tool call sent and received, exactly (JSON texts bounded; secrets redacted). */
export interface McpCallTrace {
  server: string;
  transport: 'stdio' | 'http' | 'sse';
  /** The stdio server's process id during the call. */
  pid?: number;
  /** The JSON-RPC id of the `tools/call` request (also its progress token). Absent when nothing was sent. */
  requestId?: string | number;
  /** Each `tools/call` request as sent, JSON text (one; a retry or an input round trip adds one). */
  requests: string[];
  /** The answer as received, JSON text; absent when none came (cancelled, timed out, the server ended). */
  response?: string;
  /** The answer's `isError`; absent without an answer. */
  isError?: boolean;
  log: McpLogLine[];
  /** Lines not kept (over the per-call bound). */
  logCut?: number;
  /** Starting the server before the request could be sent (0 when it was running). */
  startMs: number;
  /** From sending the request to its answer (or to giving up on it). */
  roundTripMs: number;
}

/** The module tool host that ran a module (TS/JS) tool, and what the module printed during this call. */
export interface ToolHostTrace {
  pid: number;
  command: string;
  args: string[];
  cwd: string;
  sandboxed: boolean;
  /** What the module wrote to stdout (console.log, process.stdout) in this call's async context. Bounded. */
  stdout: string;
  stderr: string;
  cut?: { stdout?: number; stderr?: number };
}

export interface ToolCallInspection {
  /** After `$VAR_REF` resolution and user edits: what the tool got. */
  resolvedArgs: Record<string, unknown>;
  varRefs: VarRefUse[];
  /** Script formats: the processes started (usually one). Empty for built-in and module tools. */
  processes: ToolProcessTrace[];
  /** MCP tools: the request, the answer and the server's log lines of this call. */
  mcp?: McpCallTrace;
  /** Module tools: the host process and the module's output during this call. */
  toolHost?: ToolHostTrace;
  timings: ToolCallTimings;
}
