// Arguments the user edited on an approval card (or with `e` in the CLI) run only after the
// checks the model's went through: `$VAR_REF` resolution and validation (prepareArgs), then the
// rules again — a deny wins whoever wrote the arguments, and the guard's call now carries the
// edited arguments, so the audit line records what ran. The user approved what they typed, so
// an ask or a policy does not ask a second time.
import type { PreparedArgs } from '../args/prepare-args.ts';
import type { CallDecision } from '../rules/decide-call.ts';

type Args = Record<string, unknown>;

export type EditedCheck =
  | Extract<PreparedArgs, { ok: true }>
  | { ok: false; message: string; /** Set when a rule denied the edited call. */ denied?: Extract<CallDecision, { kind: 'deny' }> };

/**
 * Contract: `prepare` and `decide` are the executor's own steps for this call (decide never
 * throws: a guard that fails denies).
 */
export function checkEditedArgs(edited: Args, prepare: (args: Args) => PreparedArgs, decide: (args: Args) => CallDecision): EditedCheck {
  const prepared = prepare(edited);
  if (!prepared.ok) return { ok: false, message: `The arguments the user edited before approving are not valid: ${prepared.message}` };
  const decision = decide(prepared.args);
  if (decision.kind === 'deny') return { ok: false, message: decision.reason, denied: decision };
  return prepared;
}
