// The two messages a turn builds from the chat's state: the user's message (checked before
// anything is recorded or sent: an unknown /tool or $VAR_REF never reaches the model), and each
// step's request (system prompt with the tools' rules, the shown branch, the offered tools).
import type { Attachment, ChatMessage, ChatSettings, ErrorValue, UserMessage } from '../../../../shared/chat.ts';
import { acceptsImages } from '../../../../shared/model-facts.ts';
import type { ToolDefinition } from '../../../../shared/tools.ts';
import { FIND_TOOLS } from '../../../../shared/tool-selection.ts';
import type { LlmRequest } from '../../llm/types.ts';
import type { ToolSession } from '../../tools/tool-session.ts';
import type { SessionAttachments, StoredAttachment } from '../persistence/session-attachments.ts';
import { parseSlashCommand } from '../commands/slash-command.ts';
import { unknownToolAnswer } from '../commands/unknown-slash.ts';
import { expandUserVarRefs } from './user-var-refs.ts';
import { toLlmMessages } from './to-llm-messages.ts';

export interface UserInput {
  messageId: string;
  attachments?: StoredAttachment[];
  /** Set when the text is an MCP prompt's, taken as it is: a `/tool` or `$VAR_REF` in it is just text. */
  prompt?: string;
}

/** The user message to record, or why the text is refused (nothing recorded then). */
export function userMessageOf(text: string, input: UserInput, tools: ToolSession): { ok: true; user: UserMessage } | { ok: false; error: ErrorValue } {
  const verbatim = input.prompt !== undefined;
  const slash = verbatim ? null : parseSlashCommand(text);
  if (slash && !tools.hasTool(slash.name) && slash.name !== FIND_TOOLS) {
    return { ok: false, error: { name: 'UnknownTool', message: unknownToolAnswer(slash.name, tools.definitions()) } };
  }
  const expanded = slash || verbatim ? { ok: true as const, text, refs: [] } : expandUserVarRefs(text, tools.variables);
  if (!expanded.ok) return { ok: false, error: { name: 'UnknownVariable', message: expanded.error } };
  const id = input.messageId;
  const attachments = (input.attachments ?? []).map((stored, index) => attachmentWithText(tools, stored, id, index));
  const user: UserMessage = { id, role: 'user', content: expanded.text, createdAt: Date.now(), ...(attachments.length ? { attachments } : {}), ...(verbatim ? { prompt: input.prompt! } : {}) };
  if (expanded.refs.length > 0) {
    user.typedContent = text;
    user.varRefs = expanded.refs;
  }
  return { ok: true, user };
}

/** A text or PDF attachment's whole text goes into a variable the model can read in slices. */
function attachmentWithText(tools: ToolSession, stored: StoredAttachment, messageId: string, index: number): Attachment {
  if (stored.text === undefined) return stored.attachment;
  const name = `attachment_${messageId.replace(/[^A-Za-z0-9_]/g, '_')}_${index + 1}`;
  tools.variables.add(name, stored.text, 'USER_ADD', { desc: `Text of the attached file ${stored.attachment.name}`, tags: ['attachment'] });
  return { ...stored.attachment, variable: name };
}

export interface RequestParts {
  model: string;
  chat: ChatSettings;
  /** The settings' system prompt (the chat's own wins). */
  systemPrompt: string;
  offered: { tools: ToolDefinition[]; rule?: string };
  toolRules: () => string;
  /** What the chat's MCP Apps asked the model to see (bounded; empty when none). */
  appContext?: () => string;
  path: ChatMessage[];
  attachments: SessionAttachments;
}

export function assembleChatRequest({ model, chat, systemPrompt, offered, toolRules, appContext, path, attachments }: RequestParts): LlmRequest {
  const { tools, rule } = offered;
  const userPrompt = chat.systemPrompt ?? systemPrompt;
  const system = [userPrompt, tools.length > 0 ? toolRules() : '', tools.length > 0 ? (rule ?? '') : '', appContext?.() ?? ''].filter((s) => s.trim()).join('\n\n');
  return {
    messages: toLlmMessages(
      system,
      path,
      (message) => attachments.parts(message),
      // Tools' images only to models known to take them: a text model would refuse the whole request.
      acceptsImages(model) ? (message) => attachments.toolImageParts(message) : undefined,
    ),
    model,
    ...(tools.length ? { tools } : {}),
    ...(chat.temperature !== undefined ? { temperature: chat.temperature } : {}),
    ...(chat.maxTokens !== undefined ? { maxTokens: chat.maxTokens } : {}),
  };
}
