// One model step: consumes the provider's events into an assistant message, forwarding text and
// reasoning deltas as they arrive. Never throws (the provider never does).
import type { AssistantMessage, ChatToolCall } from '../../../../shared/chat.ts';
import type { LlmError, LlmProvider, LlmRequest, LlmToolCall, StopReason, LlmUsage } from '../../llm/types.ts';

export interface StepResult {
  content: string;
  reasoning: string;
  toolCalls: LlmToolCall[];
  stopReason?: StopReason;
  error?: LlmError;
  usage?: LlmUsage;
}

export interface StepHooks {
  onDelta(delta: { text?: string; reasoning?: string }): void;
  onRetry(message: string): void;
}

export async function streamAssistantStep(provider: LlmProvider, request: LlmRequest, signal: AbortSignal, hooks: StepHooks): Promise<StepResult> {
  const result: StepResult = { content: '', reasoning: '', toolCalls: [] };
  for await (const event of provider.stream(request, signal)) {
    switch (event.type) {
      case 'text-delta':
        result.content += event.text;
        hooks.onDelta({ text: event.text });
        break;
      case 'reasoning-delta':
        result.reasoning += event.text;
        hooks.onDelta({ reasoning: event.text });
        break;
      case 'tool-call-end':
        result.toolCalls.push(event.call);
        break;
      case 'usage':
        result.usage = event.usage;
        break;
      case 'retry':
        hooks.onRetry(`${event.reason} Retrying in ${(event.delayMs / 1000).toFixed(1)} s (attempt ${event.attempt}).`);
        break;
      case 'done':
        result.stopReason = event.stopReason;
        break;
      case 'error':
        result.error = event.error;
        break;
    }
  }
  return result;
}

/** Parsed arguments for display; the raw text stays for the model and for invalid JSON. */
export function toChatToolCall(call: LlmToolCall): ChatToolCall {
  let args: Record<string, unknown> = {};
  try {
    const parsed: unknown = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
  } catch {
    // invalid JSON: the executor turns it into an ERROR result the model can act on
  }
  return { id: call.id, name: call.name, args, rawArguments: call.arguments };
}

export function assistantStopReason(step: StepResult): AssistantMessage['stopReason'] {
  if (step.error) return step.error.kind === 'aborted' ? 'aborted' : 'error';
  // A reply the token limit cut off is 'length' even with calls: they are failed, never run.
  if (step.stopReason === 'length') return 'length';
  return step.toolCalls.length > 0 ? 'tool-calls' : 'stop';
}
