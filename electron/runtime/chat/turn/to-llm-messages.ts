// The session history as the model sees it. Tool results of hand-run tools (`/tool {json}`) get
// a synthetic assistant tool call before them, and calls left without a result (an abort) get a
// placeholder, so the request is always valid for OpenAI-compatible servers. Images a tool returned
// cannot ride in a `tool` message (chat completions take text there): they follow the block of tool
// results as a user message that says which call they came from.
import type { ChatMessage, ToolResultMessage, UserMessage } from '../../../../shared/chat.ts';
import type { LlmContentPart, LlmMessage, LlmToolCall } from '../../llm/types.ts';

export const MISSING_RESULT_TEXT = '(no result: the turn was stopped before this tool call finished)';

/**
 * `attachments` gives the parts a user message's attachments add (image data, extracted text);
 * without parts a message is its plain text. `toolImages` gives the image parts of a tool result
 * (absent: the model is not known to take images, and reads only their description).
 */
export function toLlmMessages(
  systemPrompt: string,
  history: ChatMessage[],
  attachments?: (message: UserMessage) => LlmContentPart[] | undefined,
  toolImages?: (message: ToolResultMessage) => LlmContentPart[] | undefined,
): LlmMessage[] {
  const out: LlmMessage[] = [];
  if (systemPrompt.trim()) out.push({ role: 'system', content: systemPrompt });
  let open: LlmToolCall[] = [];
  const answered = new Set<string>();
  let images: LlmContentPart[] = [];
  const closeOpen = () => {
    for (const call of open) if (!answered.has(call.id)) out.push({ role: 'tool', toolCallId: call.id, content: MISSING_RESULT_TEXT });
    // After every tool message of the step: a user message between them would break the call/result pairing.
    if (images.length) out.push({ role: 'user', content: images });
    images = [];
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
      const parts = message.result.images?.length ? toolImages?.(message) : undefined;
      if (parts?.length) images.push({ type: 'text', text: toolImagesLabel(message, parts) }, ...parts);
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

/** Says the images are a tool's output, so the model does not take them for the user's own. */
function toolImagesLabel(message: ToolResultMessage, parts: LlmContentPart[]): string {
  const count = parts.filter((p) => p.type === 'image').length;
  const what = count === 1 ? 'The image below is' : count > 1 ? `The ${count} images below are` : 'What follows is';
  return `${what} the output of the tool call ${message.callId} (${message.toolName}), sent here because tool results carry only text.`;
}
