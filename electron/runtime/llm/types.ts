// The provider interface: one request in, an async iterable of tagged events out. stream() never
// throws — network/HTTP errors and aborts arrive as a final `error` event; success ends with `done`.
import type { TokenUsage } from '../../../shared/chat.ts';
import type { ToolDefinition } from '../../../shared/tools.ts';

export interface LlmToolCall {
  id: string;
  name: string;
  /** The raw JSON text as the model wrote it (may be invalid; the agent loop checks). */
  arguments: string;
}

export type LlmMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | LlmContentPart[] }
  | { role: 'assistant'; content: string | null; toolCalls?: LlmToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** Parts of a user message with attachments: text, or an image as base64 (sent as a data URL). */
export type LlmContentPart = { type: 'text'; text: string } | { type: 'image'; mediaType: string; data: string };

export interface LlmRequest {
  messages: LlmMessage[];
  tools?: ToolDefinition[];
  /** Overrides of the provider's configured values for this request. */
  model?: string;
  temperature?: number;
  maxTokens?: number;
}

export type StopReason = 'stop' | 'tool_calls' | 'length' | 'content_filter';

export type LlmUsage = TokenUsage;

export type LlmErrorKind = 'aborted' | 'auth' | 'not-found' | 'rate-limit' | 'server' | 'network' | 'bad-request' | 'protocol';

export interface LlmError {
  kind: LlmErrorKind;
  /** For the user: names the provider and what to check. */
  message: string;
  status?: number;
}

export type LlmStreamEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; id: string; argumentsDelta: string }
  | { type: 'tool-call-end'; index: number; call: LlmToolCall }
  | { type: 'usage'; usage: LlmUsage }
  /** A retryable failure before any output; the provider waits `delayMs` and tries again. */
  | { type: 'retry'; attempt: number; delayMs: number; reason: string }
  | { type: 'done'; stopReason: StopReason }
  | { type: 'error'; error: LlmError };

export interface ModelInfo {
  id: string;
  ownedBy?: string;
  /** Tokens, when the server's model list states it (listed-context-window.ts). */
  contextWindow?: number;
}

export interface LlmProvider {
  readonly id: string;
  readonly name: string;
  /** Contract: never throws; the iterable ends after exactly one `done` or `error` event. */
  stream(request: LlmRequest, signal?: AbortSignal): AsyncIterable<LlmStreamEvent>;
  /** Contract: never throws. */
  listModels(signal?: AbortSignal): Promise<{ ok: true; models: ModelInfo[] } | { ok: false; error: LlmError }>;
}
