// What a tool call may know of its chat (Open WebUI tools' __messages__ and __model__): the shown
// path's messages as role + text, newest last, each cut to a bounded length.
import type { ChatMessage } from '../../../shared/chat.ts';
import type { ToolConversation } from '../tools/types.ts';

/** At most this many characters of one message reach a tool. */
export const MAX_CONVERSATION_MESSAGE_CHARS = 8000;
/** At most this many messages (the newest). */
export const MAX_CONVERSATION_MESSAGES = 50;

export function toolConversation(messages: ChatMessage[], model: string | undefined): ToolConversation {
  const recent = messages.slice(-MAX_CONVERSATION_MESSAGES);
  const lastModel = [...messages].reverse().find((m) => m.role === 'assistant' && m.model);
  const chosen = model ?? (lastModel?.role === 'assistant' ? lastModel.model : undefined);
  return {
    ...(chosen ? { model: chosen } : {}),
    messages: recent.map((m) => ({ role: m.role, content: m.content.length > MAX_CONVERSATION_MESSAGE_CHARS ? `${m.content.slice(0, MAX_CONVERSATION_MESSAGE_CHARS)}…` : m.content })),
  };
}
