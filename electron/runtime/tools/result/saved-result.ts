// A call that already ran and whose result was waiting for the user's approval when the app
// stopped: the session file kept the result as the card showed it. Going on, the call is never
// run again — its saved result is asked about again, and the model gets it or hears it withheld.
// What is lost with the process is said on the card's note: the call's variables (the saved text
// is what the model would have read).
import type { ResultApprovalPolicy, ToolExecuteResult, ToolExecuteStatus } from '../../../../shared/tools.ts';
import type { ApprovalGate, ApprovalSubject } from '../approval/approval-gate.ts';
import { resultWithheld } from './shape-result.ts';
import type { RegisteredTool } from '../tool-catalog.ts';

/** The result a result-approval card showed. */
export interface SavedResult {
  status: ToolExecuteStatus;
  text: string;
}

/**
 * Asks about `saved` again (whatever the policy says now: the user had not answered), with
 * `askAgain` as the card's note, and makes the call's result of the answer.
 */
export async function reviewSavedResult(gate: ApprovalGate, entry: RegisteredTool, subject: ApprovalSubject, saved: SavedResult, askAgain: string | undefined, signal: AbortSignal): Promise<ToolExecuteResult> {
  if (askAgain) subject.note = askAgain;
  const result: ToolExecuteResult =
    saved.status === 'SUCCESS'
      ? { toolName: entry.name, status: 'SUCCESS', finalText: saved.text }
      : { toolName: entry.name, status: 'ERROR', error: saved.text, finalText: saved.text };
  const policy: ResultApprovalPolicy = 'always';
  const approval = await gate.result(subject, policy, { status: result.status, text: saved.text }, signal);
  return approval.allowed ? result : resultWithheld(entry, approval.reason, result);
}
