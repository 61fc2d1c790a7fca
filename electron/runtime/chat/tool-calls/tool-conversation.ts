// What a tool call may know of its chat (Open WebUI tools' __messages__, __model__ and __files__):
// the shown path's messages as role + text, newest last, each cut to a bounded length, and the
// files attached along that path (images go to the model, not to tools, as in Open WebUI).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '../../../../shared/chat.ts';
import type { ConversationFile, ToolConversation } from '../../tools/types.ts';

/** At most this many characters of one message reach a tool. */
export const MAX_CONVERSATION_MESSAGE_CHARS = 8000;
/** At most this many messages (the newest). */
export const MAX_CONVERSATION_MESSAGES = 50;

/** `attachmentsDir`: the session's files folder (SessionAttachments.dir). */
export function toolConversation(messages: ChatMessage[], model: string | undefined, attachmentsDir?: string): ToolConversation {
  const recent = messages.slice(-MAX_CONVERSATION_MESSAGES);
  const lastModel = [...messages].reverse().find((m) => m.role === 'assistant' && m.model);
  const chosen = model ?? (lastModel?.role === 'assistant' ? lastModel.model : undefined);
  const files = attachmentsDir ? attachedFiles(messages, attachmentsDir) : [];
  return {
    ...(chosen ? { model: chosen } : {}),
    messages: recent.map((m) => ({ role: m.role, content: m.content.length > MAX_CONVERSATION_MESSAGE_CHARS ? `${m.content.slice(0, MAX_CONVERSATION_MESSAGE_CHARS)}…` : m.content })),
    ...(files.length ? { files } : {}),
  };
}

/** The text and PDF attachments of the path whose stored copy is still there, oldest first. */
function attachedFiles(messages: ChatMessage[], dir: string): ConversationFile[] {
  const files: ConversationFile[] = [];
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const attachment of message.attachments ?? []) {
      // A stored name is a plain file name of the folder (SessionAttachments.read's rule).
      if (attachment.kind === 'image' || !attachment.stored || !/^[A-Za-z0-9._-]+$/.test(attachment.stored) || attachment.stored.startsWith('.')) continue;
      const path = join(dir, attachment.stored);
      try {
        const size = statSync(path).size;
        files.push({ name: attachment.name, path, mediaType: attachment.kind === 'pdf' ? 'text/plain' : attachment.mediaType, size });
      } catch {
        // gone from the folder: nothing to hand over
      }
    }
  }
  return files;
}
