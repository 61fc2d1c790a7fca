// Asks the approval callback and turns everything that can go wrong (no callback, a callback
// that throws or answers nonsense, the turn being aborted while the card is pending) into a
// rejection with a reason: never silently allowed.
import type { ApprovalDecision, ApprovalRequest } from '../../../../shared/tools.ts';
import { errorText } from '../run-tool.ts';
import type { ApprovalCallback } from '../types.ts';

export type ApprovalOutcome =
  | { approved: true; decision: ApprovalDecision }
  | { approved: false; reason: string; decision?: ApprovalDecision };

const DECISIONS = new Set(['once', 'session', 'always', 'reject']);

export async function requestApproval(
  callback: ApprovalCallback | undefined,
  request: ApprovalRequest,
  signal: AbortSignal | undefined,
): Promise<ApprovalOutcome> {
  const what = request.type === 'execution' ? 'running this tool' : 'this result';
  if (!callback) {
    return { approved: false, reason: `No one is available to approve ${what} (no approval handler is attached).` };
  }
  if (signal?.aborted) return { approved: false, reason: 'Aborted before approval was given.' };

  const local = new AbortController();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<ApprovalOutcome>((resolve) => {
    onAbort = () => {
      local.abort(signal?.reason);
      resolve({ approved: false, reason: 'Aborted while waiting for approval.' });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  const asked = (async (): Promise<ApprovalOutcome> => {
    try {
      const decision = await callback(request, local.signal);
      if (!decision || !DECISIONS.has(decision.decision)) {
        return { approved: false, reason: 'The approval handler gave no valid decision.' };
      }
      if (decision.decision === 'reject') {
        return { approved: false, reason: decision.reason?.trim() || 'Rejected by the user.', decision };
      }
      return { approved: true, decision };
    } catch (error) {
      return { approved: false, reason: `Approval failed: ${errorText(error)}` };
    }
  })();
  try {
    return await Promise.race([asked, aborted]);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
