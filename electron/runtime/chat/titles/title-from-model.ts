// A chat's title made by its model from the first exchange: one small request after the first
// answer, never part of the turn. Bounded in what it sends (the start of each message), what it
// may answer (a few tokens) and how long it may take; any failure leaves the first-words title.
import type { ChatMessage } from '../../../../shared/chat.ts';
import type { LlmProvider } from '../../llm/types.ts';
import { titleFromMessage } from './title-from-message.ts';

/** The request's system message; the fake test server recognises title requests by it. */
export const TITLE_INSTRUCTION = 'Write a short title (2 to 6 words) for the conversation below, in its language. Answer with the title only: no quotes, no final period.';

/** Characters of each message sent with the request. */
const EXCERPT_CHARS = 1500;
const MAX_TOKENS = 40;
export const TITLE_TIMEOUT_MS = 20_000;

/** What a title is made from: the path's first user message and its last answer with text. */
export function firstExchange(path: readonly ChatMessage[]): { user: string; assistant: string } | undefined {
  const user = path.find((m) => m.role === 'user');
  const answer = path.findLast((m) => m.role === 'assistant' && m.content.trim() !== '');
  return user && answer ? { user: user.content, assistant: answer.content } : undefined;
}

/** The model's answer as a title: its first line, without quotes, labels or a final period; undefined when nothing usable is left. */
export function cleanModelTitle(raw: string): string | undefined {
  const line = raw.trim().split('\n').find((l) => l.trim() !== '') ?? '';
  const title = line
    .replace(/^(title|titre|titel)\s*:\s*/i, '')
    .replace(/^[#*"'“”‘’`\s]+|[*"'“”‘’`.。\s]+$/g, '')
    .trim();
  return title ? titleFromMessage(title) : undefined;
}

/**
 * Contract: never throws; resolves with a cleaned title, or undefined when the model failed, was
 * too slow (`signal`) or answered nothing usable.
 */
export async function titleFromModel(provider: LlmProvider, model: string, exchange: { user: string; assistant: string }, signal: AbortSignal): Promise<string | undefined> {
  const excerpt = (text: string) => (text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text);
  let text = '';
  try {
    const stream = provider.stream(
      {
        model,
        maxTokens: MAX_TOKENS,
        messages: [
          { role: 'system', content: TITLE_INSTRUCTION },
          { role: 'user', content: `User: ${excerpt(exchange.user)}\n\nAssistant: ${excerpt(exchange.assistant)}` },
        ],
      },
      signal,
    );
    for await (const event of stream) {
      if (event.type === 'text-delta') text += event.text;
      else if (event.type === 'error') return undefined;
    }
  } catch {
    return undefined;
  }
  return signal.aborted ? undefined : cleanModelTitle(text);
}
