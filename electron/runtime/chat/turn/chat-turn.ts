// One turn of a chat, from the user's text to the model's last answer: the user message is
// checked and recorded, a `/tool {json}` runs by hand (also when no model is configured), and
// anything else goes to the agent loop with the chat's model. The session around it owns the
// history, the file and the events (TurnHost).
import type { AppModelContext } from '../../apps/app-model-context.ts';
import type { ChatMessage, ChatSettings, ErrorValue, StopReason, TurnInterruption, UserMessage } from '../../../../shared/chat.ts';
import type { ProviderConfig, Settings } from '../../../../shared/settings.ts';
import { FIND_TOOLS } from '../../../../shared/tool-selection.ts';
import type { ProviderResolution } from '../../llm/resolve-provider.ts';
import type { LlmToolCall } from '../../llm/types.ts';
import type { ToolSession } from '../../tools/tool-session.ts';
import { runAgentLoop } from './agent-loop.ts';
import { assembleChatRequest, userMessageOf, type UserInput } from './chat-request.ts';
import type { ChatToolCalls } from '../tool-calls/chat-tool-calls.ts';
import type { SessionAttachments } from '../persistence/session-attachments.ts';
import { parseSlashCommand, type SlashCommand } from '../commands/slash-command.ts';
import { askAgainNote, asLlmCall, callsWithoutResult, cutSlashCommand } from './turn-interruption.ts';

export interface TurnResult {
  stopReason: StopReason;
  error?: ErrorValue;
}

export interface TurnHost {
  readonly tools: ToolSession;
  readonly calls: ChatToolCalls;
  readonly attachments: SessionAttachments;
  /** What the chat's MCP Apps asked the model to see. */
  readonly appContext: AppModelContext;
  chat(): ChatSettings;
  settings(): Settings;
  /** Contract: resolves with the provider of `chat` (or why there is none); never rejects. */
  provider(chat: ChatSettings): Promise<ProviderResolution>;
  /** The shown branch, root → head. */
  path(): ChatMessage[];
  /** Contract: records a message at the head (file, tree, events). */
  append(message: ChatMessage): void;
  /** Contract: never throws. */
  delta(messageId: string, delta: { text?: string; reasoning?: string }): void;
  notice(level: 'info' | 'warning', message: string): void;
  newId(prefix: string): string;
}

const errorValue = (name: string, message: string): ErrorValue => ({ name, message });

/** The user's text: `record` puts the checked user message in place (head, append, title). */
export async function runUserTurn(host: TurnHost, text: string, input: UserInput, signal: AbortSignal, record: (user: UserMessage) => void): Promise<TurnResult> {
  const made = userMessageOf(text, input, host.tools);
  if (!made.ok) return { stopReason: 'error', error: made.error };
  record(made.user);
  const resolution = await host.provider(host.chat());
  const slash = input.prompt !== undefined ? null : parseSlashCommand(text);
  const slashTool = slash && (host.tools.hasTool(slash.name) || slash.name === FIND_TOOLS);
  // A slash command runs when the tool exists, or when there is no model to ask anyway.
  if (slash && (slashTool || !resolution.ok)) return runSlashCall(host, slash, signal);
  return runModelTurn(host, signal, resolution);
}

/** A `/tool {json}` run by hand; `askAgain`: the user is asked first whatever the policy says (a call a restart cut off). */
async function runSlashCall(host: TurnHost, slash: SlashCommand, signal: AbortSignal, askAgain?: string): Promise<TurnResult> {
  const call: LlmToolCall = { id: host.newId('call'), name: slash.name, arguments: slash.ok ? JSON.stringify(slash.args) : '' };
  if (!slash.ok) {
    host.append(host.calls.message(call, {}, { status: 'ERROR', error: slash.error, finalText: slash.error }));
    return { stopReason: 'error', error: errorValue('InvalidArguments', slash.error) };
  }
  const message = await host.calls.run(call, signal, askAgain === undefined ? {} : { askAgain });
  host.append(message);
  if (signal.aborted) return { stopReason: 'aborted' };
  return message.result.status === 'SUCCESS' ? { stopReason: 'stop' } : { stopReason: 'error', error: errorValue(message.result.status, message.result.error ?? message.content) };
}

/** The chat's own model when it belongs to the resolved provider, else the provider's. */
export function chatModel(chat: ChatSettings, config: ProviderConfig): string {
  return chat.model && (!chat.providerId || chat.providerId === config.id) ? chat.model : config.model;
}

/** The model loop from the current head: answers, tool calls and their results until a final answer. */
export async function runModelTurn(host: TurnHost, signal: AbortSignal, resolved?: ProviderResolution): Promise<TurnResult> {
  const chat = host.chat();
  const resolution = resolved ?? (await host.provider(chat));
  if (!resolution.ok) return { stopReason: 'error', error: errorValue('NoProvider', resolution.reason) };
  const { provider, config } = resolution;
  const model = chatModel(chat, config);
  return runAgentLoop(
    {
      provider,
      model,
      providerId: config.id,
      maxSteps: host.settings().limits.maxSteps,
      assembleRequest: () =>
        assembleChatRequest({
          model,
          chat: host.chat(),
          systemPrompt: host.settings().systemPrompt,
          offered: host.calls.offered(host.tools.selection()),
          toolRules: () => host.tools.toolRules(),
          appContext: () => host.appContext.promptText(),
          path: host.path(),
          attachments: host.attachments,
        }),
      onDelta: (messageId, delta) => host.delta(messageId, delta),
      onRetry: (message) => host.notice('info', message),
      append: (message) => host.append(message),
      runCall: (call, callSignal) => host.calls.run(call, callSignal),
      newId: (prefix) => host.newId(prefix),
    },
    signal,
  );
}

/**
 * Continue of an interrupted turn: every call it left without a result is asked again (a call
 * that was running may have done part of its work, so none reruns silently; one whose result
 * waited for approval shows that result again and never reruns), then the model goes on.
 */
export async function runContinuedTurn(host: TurnHost, interruption: TurnInterruption, signal: AbortSignal): Promise<TurnResult> {
  const waiting = new Set(interruption.calls.filter((call) => call.waiting).map((call) => call.callId));
  const ran = new Map(interruption.calls.flatMap((call) => (call.result ? [[call.callId, call.result] as const] : [])));
  const left = callsWithoutResult(host.path());
  const slash = left.length === 0 ? cutSlashCommand(host.path()) : null;
  if (slash && (host.tools.hasTool(slash.name) || slash.name === FIND_TOOLS)) return runSlashCall(host, slash, signal, askAgainNote(interruption.calls[0]?.waiting ?? false));
  // A call whose result waited for approval is not run again: its saved result is asked about.
  const results = await Promise.all(
    left.map((call) => {
      const savedResult = ran.get(call.id);
      return host.calls.run(asLlmCall(call), signal, { askAgain: askAgainNote(waiting.has(call.id), savedResult !== undefined), ...(savedResult ? { savedResult } : {}) });
    }),
  );
  for (const message of results) host.append(message);
  if (signal.aborted) return { stopReason: 'aborted' };
  return runModelTurn(host, signal);
}
