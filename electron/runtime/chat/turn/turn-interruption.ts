// A turn the app stopped in the middle of. The session file records each turn's start and end and
// each approval asked; a file read back with a started turn and no end was cut off (a crash, a
// kill, a restart while the turn ran). What is needed to go on is already there: the assistant
// message that asked for calls is written before they run, each result after it ends, so the
// calls of the last step without a result are the ones left.
import type { ChatMessage, ChatToolCall, TurnInterruption } from '../../../../shared/chat.ts';
import type { LlmToolCall } from '../../llm/types.ts';
import type { SessionState } from '../persistence/session-file.ts';
import { parseSlashCommand, type SlashCommand } from '../commands/slash-command.ts';

/** The calls of the path's last step that have no result yet (none when the path ends otherwise). */
export function callsWithoutResult(path: readonly ChatMessage[]): ChatToolCall[] {
  const answered = new Set<string>();
  for (let i = path.length - 1; i >= 0; i--) {
    const message = path[i]!;
    if (message.role === 'tool') answered.add(message.callId);
    else if (message.role === 'assistant') return (message.toolCalls ?? []).filter((call) => !answered.has(call.id));
    else return [];
  }
  return [];
}

/** The `/tool {json}` the path ends with: a call run by hand that was cut off before its result (its user message is all there is). */
export function cutSlashCommand(path: readonly ChatMessage[]): (SlashCommand & { ok: true }) | null {
  const last = path.at(-1);
  if (last?.role !== 'user' || last.prompt !== undefined) return null;
  const slash = parseSlashCommand(last.typedContent ?? last.content);
  return slash?.ok ? slash : null;
}

/** The interruption a replayed file shows, or undefined when its last turn ended (or it has no turn records: older files). */
export function interruptionOf(state: Pick<SessionState, 'openTurn' | 'unansweredAsks'> & Partial<Pick<SessionState, 'unansweredResults'>>, path: readonly ChatMessage[]): TurnInterruption | undefined {
  if (!state.openTurn) return undefined;
  const waitingCalls = new Set(state.unansweredAsks.values());
  const calls = callsWithoutResult(path).map((call) => {
    // A result that waited for approval: the call ran, and its result was kept to be shown again.
    const result = waitingCalls.has(call.id) ? state.unansweredResults?.get(call.id) : undefined;
    return { callId: call.id, toolName: call.name, waiting: waitingCalls.has(call.id), ...(result ? { result } : {}) };
  });
  // A hand-run call's id was never written (only its result would have been): '' and the turn's one ask.
  const slash = calls.length === 0 ? cutSlashCommand(path) : null;
  if (slash) calls.push({ callId: '', toolName: slash.name, waiting: state.unansweredAsks.size > 0 });
  const retryFrom = path.findLast((m) => m.role === 'user')?.id;
  const during = calls.length === 0 ? 'answer' : calls.every((call) => call.waiting) ? 'approval' : 'tool';
  return { turnId: state.openTurn.turnId, during, calls, ...(retryFrom ? { retryFrom } : {}) };
}

/** The card's note when Continue asks for a call again (`ran`: its result waited, shown again). */
export function askAgainNote(waiting: boolean, ran = false): string {
  if (ran) return 'Asked again: Tooldesk stopped while this result waited for your answer. The call is not run again.';
  return waiting
    ? 'Asked again: Tooldesk stopped while this call waited for your answer.'
    : 'Tooldesk stopped while this call was running, so it may have done part of its work. Run it again?';
}

/** The call as the model sent it (its raw arguments when it had them). */
export function asLlmCall(call: ChatToolCall): LlmToolCall {
  return { id: call.id, name: call.name, arguments: call.rawArguments ?? JSON.stringify(call.args) };
}
