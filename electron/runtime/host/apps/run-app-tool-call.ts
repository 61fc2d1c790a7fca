// The one place an app's `tools/call` enters the chat: through the chat's ToolSession, exactly
// like a call the model or the user makes (validation, rules, the approval card, variables,
// timeout, result approval), recorded under the app's own call and marked "from the app".
// A turn running in the chat is waited for on the turn gate's promise (the call queues behind
// it), so the call never lands between a model step's calls; nothing polls.
import type { ChatSession } from '../../chat/chat-session.ts';
import type { ToolExecuteResult } from '../../../../shared/tools.ts';

/** How long an app's call waits for the chat's running turn to end before it is refused. */
export const APP_CALL_WAIT_MS = 10 * 60_000;

/** Runs `toolName` (the chat's name for the tool) for the app shown in `appCallId`'s block. */
export async function runAppToolCall(session: ChatSession, appCallId: string, toolName: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolExecuteResult> {
  const deadline = AbortSignal.timeout(APP_CALL_WAIT_MS);
  const wait = signal ? AbortSignal.any([signal, deadline]) : deadline;
  const result = await session.runTool(toolName, args, undefined, appCallId, wait);
  if (result.status === 'ERROR' && !result.callId && wait.aborted) {
    const message = "The chat was busy for too long; the app's tool call was not run.";
    return { status: 'ERROR', error: message, finalText: message };
  }
  return result;
}
