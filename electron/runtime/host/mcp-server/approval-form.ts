// An approval card as an MCP elicitation form, and the answer back as the card's decision.
// The form offers what the app's card offers on a connection: approve once, approve for this
// connection (the executor's "session" scope: one executor per connection), reject with a reason.
// "Always allow" is left to the user's own settings (`tooldesk tools policy NAME auto`): a remote
// client must not be able to change the user's policies.
import type { ElicitRequestFormParams } from '@modelcontextprotocol/server';
import type { ApprovalDecision, ApprovalRequest } from '../../../../shared/tools.ts';
import { sliceCodePoints, countCodePoints } from '../../base/code-points.ts';

/** How much of the arguments / result the question quotes (the full text is in the audit log). */
const QUOTE_CHARS = 2000;

export function approvalForm(request: ApprovalRequest, modelName: string): ElicitRequestFormParams {
  const message =
    request.type === 'execution'
      ? `Tooldesk: run ${modelName} (group ${request.groupName}, policy ${request.policy}) with these arguments?\n${quote(JSON.stringify(request.args, null, 2))}`
      : `Tooldesk: send the ${request.result?.status === 'ERROR' ? 'error' : 'result'} of ${modelName} back (policy ${request.policy})?\n${quote(request.result?.text ?? '')}`;
  return {
    mode: 'form',
    message,
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: request.type === 'execution' ? 'Run this tool?' : 'Send this result?',
          oneOf: [
            { const: 'once', title: 'Approve once' },
            { const: 'connection', title: 'Approve for this connection' },
            { const: 'reject', title: 'Reject' },
          ],
        },
        reason: { type: 'string', title: 'Reason (told to the model when you reject)', maxLength: 2000 },
      },
      required: ['decision'],
    },
  };
}

export type ElicitAnswer =
  | { kind: 'elicit'; action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }
  | { kind: 'missing' | 'sampling' | 'roots' };

/** Anything but an explicit approval is a rejection; the reason the user typed reaches the model. */
export function decisionFrom(answer: ElicitAnswer, clientName: string): ApprovalDecision {
  if (answer.kind !== 'elicit') return { decision: 'reject', reason: `No answer came from ${clientName}.` };
  if (answer.action === 'decline') return { decision: 'reject', reason: `Declined in ${clientName}.` };
  if (answer.action === 'cancel') return { decision: 'reject', reason: `The question was dismissed in ${clientName}.` };
  const content = answer.content ?? {};
  const typed = typeof content.reason === 'string' ? content.reason.trim().slice(0, 2000) : '';
  switch (content.decision) {
    case 'once':
      return { decision: 'once' };
    case 'connection':
      return { decision: 'session' };
    case 'reject':
      return { decision: 'reject', reason: typed || `Rejected in ${clientName}.` };
    default:
      return { decision: 'reject', reason: `${clientName} answered without a valid decision (${JSON.stringify(content.decision ?? null)}).` };
  }
}

function quote(text: string): string {
  const total = countCodePoints(text);
  if (total <= QUOTE_CHARS) return text;
  return `${sliceCodePoints(text, 0, QUOTE_CHARS)}\n… (${total - QUOTE_CHARS} more characters)`;
}
