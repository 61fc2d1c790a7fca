// The one place an app's `tools/call` enters the chat: through the session's executor, exactly
// like a call the model or the user makes (validation, rules, the approval card, variables,
// timeout, result approval), recorded under the app's own call and marked "from the app".
// (When the runtime gets one ToolSession per conversation, this is the function to re-point.)
import type { ChatSession } from '../chat/chat-session.ts';
import type { ToolExecuteResult } from '../../../shared/tools.ts';

/** How long an app's call waits for the chat's running turn to end before it is refused. */
export const APP_CALL_WAIT_MS = 10 * 60_000;

/**
 * Runs `toolName` (the chat's name for the tool) for the app shown in `appCallId`'s block. A
 * turn running in the chat is waited for, so the call never lands between a model step's calls.
 */
export async function runAppToolCall(session: ChatSession, appCallId: string, toolName: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolExecuteResult> {
  const deadline = Date.now() + APP_CALL_WAIT_MS;
  for (;;) {
    if (!session.running) {
      const result = await session.runTool(toolName, args, undefined, appCallId);
      // Another turn may have started between the check and the call: wait for it too.
      if (!(result.status === 'ERROR' && !result.callId && session.running)) return result;
    }
    if (signal?.aborted || Date.now() > deadline) {
      const message = 'The chat was busy for too long; the app\'s tool call was not run.';
      return { status: 'ERROR', error: message, finalText: message };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
