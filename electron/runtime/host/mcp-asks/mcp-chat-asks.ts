// MCP elicitation and sampling requests as chat cards, and their answers back in the protocol's
// terms. Sampling is answered by the chat's own provider, only after the user allowed it.
import type { CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';
import type { McpFormField, McpInteractionAnswer, McpInteractionRequest } from '../../../../shared/mcp.ts';
import type { LlmMessage, LlmProvider } from '../../llm/types.ts';
import type { ElicitationAsk, SamplingAsk } from '../../sources/mcp/types.ts';
import { streamAssistantStep } from '../../chat/turn/stream-assistant-step.ts';

type Base = { id: string; sessionId: string };

export function elicitationCard(ask: ElicitationAsk, base: Base): McpInteractionRequest {
  const common = { ...base, server: ask.server, ...(ask.call ? { callId: ask.call.callId } : {}), ...(ask.tool ? { tool: ask.tool } : {}) };
  const params = ask.params as ElicitRequestParams & { url?: string; requestedSchema?: unknown };
  if (params.mode === 'url') return { ...common, kind: 'url', message: params.message, url: String(params.url ?? '') };
  return { ...common, kind: 'form', message: params.message, fields: formFields(params.requestedSchema), ...(ask.confirm ? { confirm: true } : {}) };
}

/** The requested schema's flat fields; anything the spec does not allow is shown as text. */
export function formFields(schema: unknown): McpFormField[] {
  const s = (schema ?? {}) as { properties?: Record<string, Record<string, unknown>>; required?: unknown };
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
  return Object.entries(s.properties ?? {}).map(([name, p]) => {
    const type = p.type === 'number' || p.type === 'integer' || p.type === 'boolean' ? p.type : 'string';
    const choices = Array.isArray(p.enum) ? p.enum.map(String) : Array.isArray(p.oneOf) ? (p.oneOf as Array<{ const?: unknown; title?: unknown }>).map((o) => String(o.const)) : undefined;
    const names = Array.isArray(p.enumNames) ? p.enumNames.map(String) : Array.isArray(p.oneOf) ? (p.oneOf as Array<{ title?: unknown; const?: unknown }>).map((o) => String(o.title ?? o.const)) : undefined;
    const field: McpFormField = { name, type, required: required.has(name) };
    if (typeof p.title === 'string') field.title = p.title;
    if (typeof p.description === 'string') field.description = p.description;
    if (choices) field.options = choices.map((value, i) => ({ value, label: names?.[i] ?? value }));
    if (['string', 'number', 'boolean'].includes(typeof p.default)) field.default = p.default as string | number | boolean;
    if (typeof p.format === 'string') field.format = p.format;
    if (typeof p.minimum === 'number') field.minimum = p.minimum;
    if (typeof p.maximum === 'number') field.maximum = p.maximum;
    return field;
  });
}

export function elicitResult(answer: McpInteractionAnswer): ElicitResult {
  if (answer.action === 'accept') return { action: 'accept', ...(answer.content ? { content: answer.content } : {}) };
  return { action: answer.action };
}

const textOf = (content: unknown): string => {
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((c) => {
      const part = (c ?? {}) as { type?: string; text?: unknown; mimeType?: unknown };
      return part.type === 'text' ? String(part.text ?? '') : `[${part.type ?? 'content'}${part.mimeType ? ` ${String(part.mimeType)}` : ''} left out]`;
    })
    .join('\n');
};

export function samplingCard(ask: SamplingAsk, base: Base): McpInteractionRequest {
  const params = ask.params as CreateMessageRequestParams;
  return {
    ...base,
    server: ask.server,
    ...(ask.call ? { callId: ask.call.callId } : {}),
    kind: 'sampling',
    messages: params.messages.map((m) => ({ role: m.role, text: textOf(m.content) })),
    ...(params.systemPrompt ? { systemPrompt: params.systemPrompt } : {}),
    maxTokens: params.maxTokens,
  };
}

/** The chat's model answers the server's messages (no tools offered: a server cannot make the model call tools). */
export async function sampleWith(provider: LlmProvider, model: string, card: Extract<McpInteractionRequest, { kind: 'sampling' }>, signal: AbortSignal): Promise<CreateMessageResult> {
  const messages: LlmMessage[] = [...(card.systemPrompt ? [{ role: 'system' as const, content: card.systemPrompt }] : []), ...card.messages.map((m) => ({ role: m.role, content: m.text }))];
  const step = await streamAssistantStep(provider, { messages, maxTokens: card.maxTokens }, signal, { onDelta: () => {}, onRetry: () => {} });
  if (step.error) throw new Error(`the model could not answer: ${step.error.message}`);
  return { role: 'assistant', content: { type: 'text', text: step.content }, model, stopReason: step.stopReason === 'length' ? 'maxTokens' : 'endTurn' };
}
