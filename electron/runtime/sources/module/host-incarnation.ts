// The state of one running tool host as the app keeps it (tool-host.ts): the requests waiting
// for an answer, which answer each may get, and how the app writes to it, holds it and ends it.
// The host runs user code: a message whose id or kind matches no open request was not asked for
// (host-forgeries.ts).
import type { Diagnostic, ToolUpdate } from '../../../../shared/tools.ts';
import type { ManagedProcess } from '../../runner/spawn-managed.ts';
import type { CallTrace } from '../../tools/call-trace.ts';
import type { ToolRunResult } from '../../tools/types.ts';
import type { LoadRecord } from './load-record.ts';
import type { HostToolInfo, ToHost } from './host-protocol.ts';

export interface LoadAnswer {
  tools: HostToolInfo[];
  diagnostics: Diagnostic[];
}

export interface LoadOutcome {
  record: LoadRecord;
  tools: HostToolInfo[];
  diagnostics: Diagnostic[];
}

/** A request waiting for its answer; `file`: the module it is about (charged for forgeries). */
export type Pending = { file: string } & (
  | { kind: 'load'; resolve: (answer: LoadAnswer | Failure) => void }
  | {
      kind: 'execute';
      resolve: (answer: ToolRunResult | Failure) => void;
      onUpdate: (update: ToolUpdate) => void;
      output: CallOutput;
      trace: CallTrace | undefined;
      /** The call's module, tool and id: an exec() is run only when it names all three (exec-binding.ts). */
      loadId: number;
      key: string;
      callId: string;
    }
  | { kind: 'session'; resolve: (answer: { error?: string } | Failure) => void }
);

export interface Failure {
  failure: string;
}

/** What the module printed during one call, as the host attributed it (bounded by the host too). */
export interface CallOutput {
  stdout: string;
  stderr: string;
  cut: { stdout?: number; stderr?: number };
}

/** One running host process. */
export interface Incarnation {
  process: ManagedProcess;
  pid: number;
  /** How it was started, for the Inspect panel of the calls it ran. */
  launch: { command: string; args: string[]; cwd: string };
  pending: Map<number, Pending>;
  loaded: Set<number>;
  /** Running exec() processes by exec id; `executeId`: the call that started one (it ends with it). */
  execs: Map<number, { controller: AbortController; executeId: number }>;
  dead: boolean;
  exitNote: string;
  /** Replaced by a newer host (its mask grew): it stops once its open requests have answered. */
  retiring?: boolean;
}

/** The kind of open request each host message answers ('any': not tied to one). */
export const EXPECTED_KIND: Partial<Record<string, Pending['kind'] | 'any'>> = {
  loaded: 'load',
  update: 'execute',
  result: 'execute',
  output: 'execute',
  done: 'session',
  exec: 'any',
  'exec-cancel': 'any',
};

/** Writes one message; to a host going away it is dropped (its exit settles what is pending). */
export function sendToHost(inc: Incarnation, message: ToHost): void {
  if (inc.dead) return;
  try {
    inc.process.stdin.write(`${JSON.stringify(message)}\n`);
  } catch {
    // the host is going away; its exit settles what is pending
  }
}

/** While a request or an exec is open the host keeps the app alive. */
export function holdApp(inc: Incarnation): void {
  if (!inc.dead) inc.process.ref();
}

/** Idle, the host lets the app exit; a retiring host (host-mask.ts) stops once idle. */
export function releaseApp(inc: Incarnation): void {
  if (inc.dead || inc.pending.size > 0 || inc.execs.size > 0) return;
  inc.process.unref();
  if (inc.retiring) void stopHost(inc);
}

/** Ends the host at once; `why` is what its open requests are told. */
export async function killHost(inc: Incarnation, why: string): Promise<void> {
  if (inc.dead) return;
  inc.exitNote ||= why;
  await inc.process.kill();
}

/** Ends the host's input and waits for it to finish (killed after 2 s). */
export async function stopHost(inc: Incarnation): Promise<void> {
  if (inc.dead) return;
  inc.exitNote ||= 'the module tool host was shut down';
  inc.process.stdin.end();
  const timer = setTimeout(() => void inc.process.kill(), 2_000);
  await inc.process.exited;
  clearTimeout(timer);
}
