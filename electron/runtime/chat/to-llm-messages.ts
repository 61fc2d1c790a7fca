// The session history as the model sees it. Tool results of hand-run tools (`/tool {json}`) get
// a synthetic assistant tool call before them, and calls left without a result (an abort) get a
// placeholder, so the request is always valid for OpenAI-compatible servers.
import type { ChatMessage, UserMessage } from '../../../shared/chat.ts';
import type { LlmContentPart, LlmMessage, LlmToolCall } from '../llm/types.ts';

export const MISSING_RESULT_TEXT = '(no result: the turn was stopped before this tool call finished)';

/**
 * `attachments` gives the parts a user message's attachments add (image data, extracted text);
 * without parts a message is its plain text.
 */
export function toLlmMessages(systemPrompt: string, history: ChatMessage[], attachments?: (message: UserMessage) => LlmContentPart[] | undefined): LlmMessage[] {
  const out: LlmMessage[] = [];
  if (systemPrompt.trim()) out.push({ role: 'system', content: systemPrompt });
  let open: LlmToolCall[] = [];
  const answered = new Set<string>();
  const closeOpen = () => {
    for (const call of open) if (!answered.has(call.id)) out.push({ role: 'tool', toolCallId: call.id, content: MISSING_RESULT_TEXT });
    open = [];
    answered.clear();
  };
  for (const message of history) {
    if (message.role === 'tool') {
      if (!open.some((c) => c.id === message.callId)) {
        closeOpen();
        const call = { id: message.callId, name: message.toolName, arguments: JSON.stringify(message.args ?? {}) };
        out.push({ role: 'assistant', content: null, toolCalls: [call] });
        open = [call];
      }
      answered.add(message.callId);
      out.push({ role: 'tool', toolCallId: message.callId, content: message.content });
      continue;
    }
    closeOpen();
    if (message.role === 'user') {
      const parts = message.attachments?.length ? attachments?.(message) : undefined;
      out.push({ role: 'user', content: parts?.length ? [...(message.content ? [{ type: 'text' as const, text: message.content }] : []), ...parts] : message.content });
    }
    else {
      const calls = (message.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, arguments: c.rawArguments ?? JSON.stringify(c.args) }));
      if (!message.content && calls.length === 0) continue; // an empty or failed step says nothing
      out.push({ role: 'assistant', content: message.content || null, ...(calls.length ? { toolCalls: calls } : {}) });
      open = calls;
    }
  }
  closeOpen();
  return out;
}
