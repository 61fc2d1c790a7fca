// The agent loop, outside any session class (as pi-mono's agent-loop.ts): each step goes through
// named phases
//   assemble request → stream step → run calls → append results → decide next
// until the model answers without calls, the step bound is reached, or the signal aborts. The
// loop never throws (the provider never does, runCall never does); the session around it owns
// persistence and events through the ports below.
//
// Abort, phase by phase: before a step is assembled → 'aborted', nothing sent; while streaming →
// the provider ends with an `aborted` error, the partial text is kept, its tool calls never run;
// while calls run → every call gets the signal, results that still arrive (a tool finishing
// after the abort) are appended in call order, so the history has an answer for every call, and
// no further step starts.
//
// A reply cut off by the token limit (`finish_reason: "length"`) may end inside a call's
// arguments: its calls are failed with a message to the model and never run (as pi-mono does);
// the model gets that message and the next step, so it can call again with complete arguments.
import type { AssistantMessage, ChatMessage, ErrorValue, StopReason, ToolResultMessage } from '../../../../shared/chat.ts';
import type { LlmProvider, LlmRequest, LlmToolCall } from '../../llm/types.ts';
import { stepTiming, type StepClock } from './step-timing.ts';
import { assistantStopReason, streamAssistantStep, toChatToolCall, type StepResult } from './stream-assistant-step.ts';

export interface AgentLoopPorts {
  provider: LlmProvider;
  /** The model every step asks, and the provider's id recorded with each answer. */
  model: string;
  providerId: string;
  /** At least 1. */
  maxSteps: number;
  /** Contract: the request of the next step from the history as it is now; never throws. */
  assembleRequest(): LlmRequest;
  /** Contract: a streamed piece of the step's assistant message `messageId`; never throws. */
  onDelta(messageId: string, delta: { text?: string; reasoning?: string }): void;
  /** Contract: the provider retries (rate limit, server error); never throws. */
  onRetry(message: string): void;
  /** Contract: records a message in the history (the session writes and announces it). */
  append(message: ChatMessage): void;
  /** Contract: runs one call and never rejects; the tool message it returns is not yet appended. */
  runCall(call: LlmToolCall, signal: AbortSignal): Promise<ToolResultMessage>;
  newId(prefix: string): string;
}

export interface LoopOutcome {
  stopReason: StopReason;
  error?: ErrorValue;
}

const errorValue = (name: string, message: string): ErrorValue => ({ name, message });

export async function runAgentLoop(ports: AgentLoopPorts, signal: AbortSignal): Promise<LoopOutcome> {
  const maxSteps = Math.max(1, ports.maxSteps);
  for (let step = 1; step <= maxSteps; step++) {
    if (signal.aborted) return { stopReason: 'aborted' };
    const request = ports.assembleRequest();
    const streamed = await streamStep(ports, request, signal);
    const stop = decideAfterStream(streamed);
    if (stop) return stop;
    const results = streamed.step.stopReason === 'length' ? failCutCalls(ports, streamed.step.toolCalls) : await runCalls(ports, streamed.step.toolCalls, signal);
    appendResults(ports, results);
    if (signal.aborted) return { stopReason: 'aborted' };
  }
  return { stopReason: 'max-steps', error: errorValue('MaxSteps', `Stopped after ${maxSteps} model steps (the limit is limits.maxSteps in the settings).`) };
}

/** Phase: one model step streamed into an assistant message, appended when it says anything. */
export async function streamStep(ports: AgentLoopPorts, request: LlmRequest, signal: AbortSignal): Promise<{ step: StepResult; assistant: AssistantMessage }> {
  const messageId = ports.newId('msg');
  const clock: StepClock = { startedAt: Date.now() };
  const step = await streamAssistantStep(ports.provider, request, signal, {
    onDelta: (delta) => {
      clock.firstTokenAt ??= Date.now();
      ports.onDelta(messageId, delta);
    },
    onRetry: (message) => ports.onRetry(message),
  });
  const assistant: AssistantMessage = {
    id: messageId,
    role: 'assistant',
    content: step.content,
    createdAt: Date.now(),
    model: ports.model,
    providerId: ports.providerId,
    timing: stepTiming(clock, Date.now(), step.usage),
    stopReason: assistantStopReason(step),
    ...(step.reasoning ? { reasoning: step.reasoning } : {}),
    // Tool calls of a failed or aborted stream are incomplete: never recorded, never run.
    ...(step.toolCalls.length && !step.error ? { toolCalls: step.toolCalls.map(toChatToolCall) } : {}),
    ...(step.usage ? { usage: step.usage } : {}),
    ...(step.error && step.error.kind !== 'aborted' ? { error: errorValue(`llm.${step.error.kind}`, step.error.message) } : {}),
  };
  if (assistant.content || assistant.reasoning || assistant.toolCalls || assistant.error) ports.append(assistant);
  return { step, assistant };
}

/** Phase: the step ended the turn (an error, an abort, or an answer without calls), or undefined to run its calls. */
export function decideAfterStream({ step, assistant }: { step: StepResult; assistant: AssistantMessage }): LoopOutcome | undefined {
  if (step.error) {
    return step.error.kind === 'aborted' ? { stopReason: 'aborted' } : { stopReason: 'error', error: errorValue(`llm.${step.error.kind}`, step.error.message) };
  }
  if (step.toolCalls.length === 0) return { stopReason: assistant.stopReason === 'length' ? 'length' : 'stop' };
  return undefined;
}

/** Phase: parallel calls run concurrently, each with its own approval; results in call order. */
export function runCalls(ports: AgentLoopPorts, calls: LlmToolCall[], signal: AbortSignal): Promise<ToolResultMessage[]> {
  return Promise.all(calls.map((call) => ports.runCall(call, signal)));
}

/** What the model reads for a call of a reply the token limit cut off. */
export function cutCallMessage(name: string): string {
  return `Your reply was cut off before the call's arguments were complete (the model's output token limit was reached), so ${name} was not run. Call it again with complete arguments; if they are long, make them shorter or split the work into several calls.`;
}

/** Phase (a reply cut off by the token limit): each call fails with a message to the model; none runs. */
export function failCutCalls(ports: AgentLoopPorts, calls: LlmToolCall[]): ToolResultMessage[] {
  return calls.map((call) => {
    const message = cutCallMessage(call.name);
    return {
      id: ports.newId('msg'),
      role: 'tool',
      createdAt: Date.now(),
      callId: call.id,
      toolName: call.name,
      args: toChatToolCall(call).args,
      content: message,
      result: { toolName: call.name, status: 'ERROR', error: message, finalText: message, callId: call.id },
    };
  });
}

/** Phase: every call's result goes into the history, so the next request answers each call. */
export function appendResults(ports: AgentLoopPorts, results: ToolResultMessage[]): void {
  for (const message of results) ports.append(message);
}
