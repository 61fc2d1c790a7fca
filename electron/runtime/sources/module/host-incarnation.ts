// The state of one running tool host as the app keeps it (tool-host.ts): the requests waiting
// for an answer, and which answer each may get. The host runs user code: a message whose id or
// kind matches no open request was not asked for (host-forgeries.ts).
import type { Diagnostic, ToolUpdate } from '../../../../shared/tools.ts';
import type { ManagedProcess } from '../../runner/spawn-managed.ts';
import type { CallTrace } from '../../tools/call-trace.ts';
import type { ToolRunResult } from '../../tools/types.ts';
import type { LoadRecord } from './load-record.ts';
import type { HostToolInfo } from './host-protocol.ts';

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
