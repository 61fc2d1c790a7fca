// What the Inspect panel of a tool call shows: exactly what was sent and received. The runtime
// records it per call (the executor's timestamps, the runner's command line and exit code) and
// carries it on the call's result, so a reopened session can still be inspected.

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

export interface ToolCallInspection {
  /** After `$VAR_REF` resolution and user edits: what the tool got. */
  resolvedArgs: Record<string, unknown>;
  varRefs: VarRefUse[];
  /** Script formats: the processes started (usually one). Empty for built-in and module tools. */
  processes: ToolProcessTrace[];
  timings: ToolCallTimings;
}
