// Which call a module's `exec` request belongs to. One tool host runs every module of a tools
// folder, and any of them can write protocol lines on the host's stdout, so an `exec` line may be
// forged. The app runs one only when it names a call the host is running now (`executeId`), the
// module of that call (`loadId`) and that call's id (`callId`); the secrets it may ask for are the
// ones the called tool declared. Outside a call nothing runs: a process never outlives its call,
// and a secret never reaches a process no call of its tool started. Pure, no I/O.
import type { Pending } from './host-incarnation.ts';
import type { FromHost } from './host-protocol.ts';
import type { LoadRecord } from './load-record.ts';

type ExecMessage = Extract<FromHost, { t: 'exec' }>;
type RunningCall = Extract<Pending, { kind: 'execute' }>;

export type ExecBinding =
  | { executeId: number; call: RunningCall; record: LoadRecord; secrets: ReadonlySet<string> }
  /**
   * `forged`: the host's own bookkeeping never sends such a line (a module wrote it); the app
   * charges it to the running modules and sends no reply (the id may be another exec's).
   */
  | { refused: string; forged: boolean };

const NONE: ReadonlySet<string> = new Set();

export function bindExec(message: ExecMessage, pending: ReadonlyMap<number, Pending>, loads: ReadonlyMap<number, LoadRecord>): ExecBinding {
  const executeId = typeof message.executeId === 'number' ? message.executeId : undefined;
  if (executeId === undefined) return { refused: 'exec: a process can only be started by a running call (not at load, in a session hook or from a timer outside a call)', forged: false };
  const call = pending.get(executeId);
  if (call?.kind !== 'execute') return { refused: 'exec: the call that started it has already ended', forged: false };
  if (message.loadId !== call.loadId) return { refused: `exec: request ${executeId} runs another module`, forged: true };
  if (message.callId !== call.callId) return { refused: `exec: request ${executeId} is not call ${String(message.callId).slice(0, 80)}`, forged: true };
  const record = loads.get(call.loadId);
  if (!record) return { refused: 'exec: this module is not loaded any more', forged: false };
  return { executeId, call, record, secrets: record.secrets.get(call.key) ?? NONE };
}
