// `/calls` and `/again [N]` in `tooldesk chat --session ID`: the session's tool calls, numbered,
// and "Run again" of one of them through the runtime's rerunToolCall (what the app's button
// does): approval as usual, the new result recorded under the first so the model sees it next turn.
// `/continue` goes on with the session's turn a restart interrupted (the app's Continue).
import type { ChatMessage, ToolResultMessage } from '../../shared/chat.ts';

export type CliChatCommand = { kind: 'calls' } | { kind: 'again'; n?: number } | { kind: 'continue' } | { kind: 'error'; message: string };

/** Null when the text is not one of these commands (then it is a message or a `/tool {json}`). */
export function parseCliChatCommand(text: string): CliChatCommand | null {
  const match = /^\/(calls|again|continue)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return null;
  const rest = (match[2] ?? '').trim();
  if (match[1] === 'calls' || match[1] === 'continue') {
    const kind = match[1];
    return rest ? { kind: 'error', message: `/${kind} takes no arguments (got "${rest}")` } : { kind };
  }
  if (!rest) return { kind: 'again' };
  if (!/^\d+$/.test(rest) || Number(rest) < 1) return { kind: 'error', message: `/again takes the number of a call that /calls lists, e.g. /again 2 (got "${rest}")` };
  return { kind: 'again', n: Number(rest) };
}

/** The tool calls of the shown branch, in the order they ran (runs again included): /calls numbers them from 1. */
export function sessionCalls(messages: ChatMessage[]): ToolResultMessage[] {
  return messages.filter((m): m is ToolResultMessage => m.role === 'tool');
}

/** One line per call: number, tool, status, the arguments it ran with, and which call it ran again. */
export function formatCalls(calls: ToolResultMessage[]): string {
  const numberOf = new Map(calls.map((c, i) => [c.callId, i + 1]));
  return calls
    .map((call, i) => {
      const args = JSON.stringify(call.result.editedArgs ?? call.args ?? {});
      const shown = args.length > 200 ? `${args.slice(0, 200)}…` : args;
      const again = call.rerunOf ? `  (ran ${numberOf.has(call.rerunOf) ? `#${numberOf.get(call.rerunOf)}` : call.rerunOf} again)` : '';
      const edited = call.result.editedArgs ? '  (arguments edited)' : '';
      return `${i + 1}  ${call.toolName}  ${call.result.status}  ${shown}${edited}${again}`;
    })
    .join('\n');
}
