// The OpenAI-compatible provider (OpenAI, Ollama, LM Studio, vLLM, llama.cpp, OpenRouter,
// DeepSeek …) through the official `openai` package. The package's own retries are off: retries
// here are bounded, honour Retry-After, surface as `retry` events, and only happen before any
// output was streamed (a retry after partial output would duplicate it).
import type OpenAI from 'openai';
import type { APIError } from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ProviderConfig } from '../../../shared/settings.ts';
import { describeHttpError, describeNetworkError, type ProviderLabel } from './describe-llm-error.ts';
import { DEFAULT_RETRY, isRetryableStatus, parseRetryAfter, retryDelay, sleep, type RetryOptions } from './retry-policy.ts';
import { ToolCallAssembler } from './tool-call-assembler.ts';
import { listedContextWindow } from './listed-context-window.ts';
import type { LlmError, LlmMessage, LlmProvider, LlmRequest, LlmStreamEvent, ModelInfo, StopReason } from './types.ts';

export interface OpenAICompatibleOptions {
  config: ProviderConfig;
  /** Resolved from the keychain by the caller; local servers need none. */
  apiKey?: string | null;
  retry?: RetryOptions;
  /** Per-request timeout, ms (default 10 minutes, the package's default). */
  timeoutMs?: number;
  /** Ask for a final usage chunk (`stream_options.include_usage`). Default true. */
  includeUsage?: boolean;
  /** For tests: replaces the wait between retries. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<boolean>;
}

export function toOpenAIMessages(messages: LlmMessage[]): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    switch (m.role) {
      case 'assistant':
        return {
          role: 'assistant',
          content: m.content,
          ...(m.toolCalls && m.toolCalls.length > 0
            ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) }
            : {}),
        };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
      case 'user':
        if (typeof m.content === 'string') return { role: 'user', content: m.content };
        return {
          role: 'user',
          content: m.content.map((part) =>
            part.type === 'text' ? { type: 'text' as const, text: part.text } : { type: 'image_url' as const, image_url: { url: `data:${part.mediaType};base64,${part.data}` } },
          ),
        };
      default:
        return { role: m.role, content: m.content };
    }
  });
}

const STOP_REASONS: Record<string, StopReason> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
};

/** DeepSeek/vLLM send `reasoning_content`, OpenRouter and newer Ollama `reasoning`. */
function reasoningOf(delta: object): string | undefined {
  const d = delta as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof d.reasoning_content === 'string' && d.reasoning_content) return d.reasoning_content;
  if (typeof d.reasoning === 'string' && d.reasoning) return d.reasoning;
  return undefined;
}

type MaxTokensParam = NonNullable<ProviderConfig['maxTokensParam']>;

/** The field that carries max tokens: the configured one, else what the server is known to take. */
export function maxTokensParamFor(config: ProviderConfig): MaxTokensParam {
  if (config.maxTokensParam) return config.maxTokensParam;
  let host = '';
  try {
    host = new URL(config.baseURL).hostname;
  } catch {
    // an invalid URL fails later with a clear network error
  }
  return host === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';
}

/** A 400 that names the field we sent as unsupported/unknown (OpenAI: "Unsupported parameter: 'max_tokens' …"). */
const refusesField = (detail: string, field: string) =>
  new RegExp(`(unsupported|unrecognized|unknown|extra)[^.]*\\b${field}\\b|\\b${field}\\b[^.]*(not supported|unsupported|not allowed|not permitted)`, 'i').test(detail);

function errorDetail(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  return error.message.replace(/^\d{3}\s*/, '');
}

// The openai package (360 KB bundled) loads with the first request, not with every command that
// reads sessions.
let openaiPackage: Promise<typeof import('openai')> | undefined;
const loadOpenAI = () => (openaiPackage ??= import('openai'));

export function createOpenAICompatibleProvider(options: OpenAICompatibleOptions): LlmProvider {
  const { config } = options;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const wait = options.sleep ?? sleep;
  const label: ProviderLabel = {
    name: config.name || config.id,
    baseURL: config.baseURL,
    model: config.model,
    ...(config.apiKeySecret ? { apiKeySecret: config.apiKeySecret } : {}),
  };
  let made: OpenAI | undefined;
  const openai = async () => {
    const sdk = await loadOpenAI();
    made ??= new sdk.default({
      baseURL: config.baseURL,
      // The package insists on a key; local servers ignore it.
      apiKey: options.apiKey || 'not-needed',
      defaultHeaders: config.headers ?? {},
      maxRetries: 0,
      timeout: options.timeoutMs ?? 10 * 60 * 1000,
      dangerouslyAllowBrowser: true,
    });
    return { client: made, ...sdk };
  };

  async function* stream(request: LlmRequest, signal?: AbortSignal): AsyncGenerator<LlmStreamEvent> {
    const aborted = (): LlmStreamEvent => ({ type: 'error', error: { kind: 'aborted', message: 'The request was aborted.' } });
    const { client, APIConnectionError, APIError, APIUserAbortError } = await openai();
    const model = request.model ?? config.model;
    const maxTokens = request.maxTokens ?? config.maxTokens;
    let tokensField = maxTokensParamFor(config);
    let swappedTokensField = false;
    const params: ChatCompletionCreateParamsStreaming = {
      model,
      messages: toOpenAIMessages(request.messages),
      stream: true,
      ...(options.includeUsage === false ? {} : { stream_options: { include_usage: true } }),
      ...(request.tools && request.tools.length > 0 ? { tools: request.tools } : {}),
      ...((request.temperature ?? config.temperature) !== undefined ? { temperature: request.temperature ?? config.temperature } : {}),
      ...(maxTokens !== undefined ? { [tokensField]: maxTokens } : {}),
    };
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) return yield aborted();
      let emitted = false;
      let failure: { error: LlmError; retryable: boolean; retryAfterMs?: number };
      try {
        const response = await client.chat.completions.create(params, signal ? { signal } : {});
        const assembler = new ToolCallAssembler();
        let finish: string | null = null;
        for await (const chunk of response as AsyncIterable<ChatCompletionChunk>) {
          // Chunks already buffered keep coming after an abort: stop at once.
          if (signal?.aborted) break;
          if (chunk.usage) {
            const u = chunk.usage;
            yield { type: 'usage', usage: { inputTokens: u.prompt_tokens ?? 0, outputTokens: u.completion_tokens ?? 0, totalTokens: u.total_tokens ?? 0 } };
          }
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const delta = choice.delta ?? {};
          const reasoning = reasoningOf(delta);
          if (reasoning) {
            emitted = true;
            yield { type: 'reasoning-delta', text: reasoning };
          }
          if (typeof delta.content === 'string' && delta.content) {
            emitted = true;
            yield { type: 'text-delta', text: delta.content };
          }
          for (const d of delta.tool_calls ?? []) {
            emitted = true;
            for (const event of assembler.push(d)) yield event;
          }
          if (choice.finish_reason) finish = choice.finish_reason;
        }
        if (signal?.aborted) return yield aborted();
        if (finish === null) {
          // The server closed the stream without a finish_reason: a cut connection or a crash.
          failure = {
            error: { kind: 'protocol', message: `${label.name} (${label.baseURL}) ended the stream before the answer was complete (the connection was cut).` },
            retryable: !emitted,
          };
        } else {
          const calls = assembler.finish();
          for (const { index, call } of calls) yield { type: 'tool-call-end', index, call };
          const reason = STOP_REASONS[finish] ?? 'stop';
          // Some servers say "stop" even when they called tools.
          return yield { type: 'done', stopReason: calls.length > 0 && reason === 'stop' ? 'tool_calls' : reason };
        }
      } catch (error) {
        if (signal?.aborted || error instanceof APIUserAbortError) return yield aborted();
        if (error instanceof APIConnectionError) {
          const cause = (error.cause as Error | undefined)?.message ?? error.message;
          failure = { error: describeNetworkError(label, cause, attempt), retryable: !emitted };
        } else if (error instanceof APIError && error.status === 400 && params.stream_options && /stream_options/i.test(errorDetail(error))) {
          // An older server that refuses the usage option: ask again without it (not a retry).
          delete params.stream_options;
          attempt--;
          continue;
        } else if (error instanceof APIError && error.status === 400 && maxTokens !== undefined && !swappedTokensField && refusesField(errorDetail(error), tokensField)) {
          // max_tokens vs max_completion_tokens: ask once more with the other field (not a retry).
          delete params[tokensField];
          tokensField = tokensField === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
          params[tokensField] = maxTokens;
          swappedTokensField = true;
          attempt--;
          continue;
        } else if (error instanceof APIError && error.status !== undefined) {
          const retryAfterMs = parseRetryAfter(error.headers);
          failure = {
            error: describeHttpError(label, error.status, errorDetail(error), attempt),
            retryable: !emitted && isRetryableStatus(error.status),
            ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
          };
        } else {
          // A connection dropped mid-body surfaces as a plain error from the body reader.
          const message = error instanceof Error ? error.message : String(error);
          failure = {
            error: { kind: 'protocol', message: `${label.name} (${label.baseURL}) broke off the stream: ${message}.` },
            retryable: !emitted,
          };
        }
      }
      const tooLong = failure.retryAfterMs !== undefined && failure.retryAfterMs > retry.maxRetryAfterMs;
      if (!failure.retryable || attempt >= retry.maxRetries || tooLong) {
        if (tooLong) failure.error.message += ` The server asked to wait ${Math.ceil(failure.retryAfterMs! / 1000)} s, longer than Tooldesk waits.`;
        return yield { type: 'error', error: failure.error };
      }
      const delayMs = retryDelay(attempt + 1, failure.retryAfterMs, retry);
      yield { type: 'retry', attempt: attempt + 1, delayMs, reason: failure.error.message };
      if (!(await wait(delayMs, signal))) return yield aborted();
    }
  }

  async function listModels(signal?: AbortSignal): ReturnType<LlmProvider['listModels']> {
    const { client, APIConnectionError, APIError, APIUserAbortError } = await openai();
    try {
      const models: ModelInfo[] = [];
      for await (const model of client.models.list(signal ? { signal } : {})) {
        const window = listedContextWindow(model);
        models.push({ id: model.id, ...(model.owned_by ? { ownedBy: model.owned_by } : {}), ...(window ? { contextWindow: window } : {}) });
      }
      return { ok: true, models };
    } catch (error) {
      if (signal?.aborted || error instanceof APIUserAbortError) return { ok: false, error: { kind: 'aborted', message: 'The request was aborted.' } };
      if (error instanceof APIConnectionError) return { ok: false, error: describeNetworkError(label, (error.cause as Error | undefined)?.message ?? error.message) };
      if (error instanceof APIError && error.status !== undefined) return { ok: false, error: describeHttpError(label, error.status, errorDetail(error)) };
      return { ok: false, error: { kind: 'protocol', message: `${label.name} (${label.baseURL}) sent an unexpected model list: ${String(error)}` } };
    }
  }

  return { id: config.id, name: label.name, stream, listModels };
}
