// What a chat asks the user: tool approvals (recorded in the session file) and what MCP servers
// ask during a call (elicitation, sampling). Both are PendingAsks shown as cards; someone must be
// listening (a window, a terminal, the host) or the answer is "no" at once.
import type { ChatEvent } from '../../../shared/chat.ts';
import type { McpInteractionAnswer, McpInteractionRequest } from '../../../shared/mcp.ts';
import type { ApprovalDecision, ApprovalRequest } from '../../../shared/tools.ts';
import { PendingAsks, reasonText } from '../base/pending-asks.ts';
import type { SessionRecord } from './persistence/session-records.ts';

export interface SessionAsksPorts {
  sessionId: string;
  canAsk(): boolean;
  /** Contract: never throws. */
  emit(event: ChatEvent): void;
  record(record: SessionRecord): void;
}

export interface SessionAsks {
  approvals: PendingAsks<ApprovalRequest, ApprovalDecision>;
  mcp: PendingAsks<McpInteractionRequest, McpInteractionAnswer>;
  /** The session closes: every question still open ends as dropped, with `reason`. */
  rejectAll(reason: Error): void;
}

export function sessionAsks({ sessionId, canAsk, emit, record }: SessionAsksPorts): SessionAsks {
  const approvals = new PendingAsks<ApprovalRequest, ApprovalDecision>({
    canAsk,
    requested: (request) => {
      try {
        // So a restart finds the question unanswered and asks it again (turn-interruption.ts).
        record({ t: 'approval-asked', at: Date.now(), request });
      } catch {
        // A full disk: the card still shows; after a restart the call counts as running, asked again all the same.
      }
      emit({ type: 'approval.requested', sessionId, request });
    },
    resolved: (request, decision) => {
      record({ t: 'approval', at: Date.now(), request, decision });
      emit({ type: 'approval.resolved', sessionId, requestId: request.id, decision });
    },
    // The abort's reason says who stopped it (the turn's abort, or cancelling this one call).
    dropped: (reason) => {
      const why = reasonText(reason);
      return { decision: 'reject', reason: why ? `The call was stopped (${why}).` : 'The turn was aborted.' };
    },
    unattended: () => ({ decision: 'reject', reason: 'No one is there to approve it (no UI or terminal is attached to this session).' }),
  });
  const mcp = new PendingAsks<McpInteractionRequest, McpInteractionAnswer>({
    canAsk,
    requested: (request) => emit({ type: 'mcp.interaction.requested', sessionId, request }),
    resolved: (request, answer) => emit({ type: 'mcp.interaction.resolved', sessionId, requestId: request.id, answer }),
    dropped: () => ({ action: 'cancel' }),
    unattended: () => ({ action: 'decline' }),
  });
  return {
    approvals,
    mcp,
    rejectAll: (reason) => {
      approvals.rejectAll(reason);
      mcp.rejectAll(reason);
    },
  };
}
