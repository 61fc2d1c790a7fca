// The agent loop on its own, with a scripted provider (no network, no session): parallel calls,
// an abort in each phase, the step bound, and a tool result arriving after the abort.
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolResultMessage } from '../../../../shared/chat.ts';
import { runAgentLoop, type AgentLoopPorts } from '../../../../electron/runtime/chat/turn/agent-loop.ts';
import type { LlmProvider, LlmRequest, LlmStreamEvent, LlmToolCall } from '../../../../electron/runtime/llm/types.ts';

type Script = (request: LlmRequest, signal: AbortSignal, step: number) => AsyncIterable<LlmStreamEvent>;

function scriptedProvider(script: Script): LlmProvider & { requests: LlmRequest[] } {
  const requests: LlmRequest[] = [];
  return {
    id: 'scripted',
    name: 'Scripted',
    requests,
    stream(request, signal) {
      requests.push(request);
      return script(request, signal ?? new AbortController().signal, requests.length);
    },
    listModels: async () => ({ ok: true, models: [] }),
  };
}

async function* events(...list: LlmStreamEvent[]): AsyncIterable<LlmStreamEvent> {
  for (const event of list) yield event;
}

const call = (id: string, name = 'echo', args = '{}'): LlmStreamEvent => ({ type: 'tool-call-end', index: 0, call: { id, name, arguments: args } });

function harness(provider: LlmProvider, runCall: AgentLoopPorts['runCall'], maxSteps = 10) {
  const history: ChatMessage[] = [];
  const deltas: string[] = [];
  let ids = 0;
  const ports: AgentLoopPorts = {
    provider,
    model: 'm',
    providerId: 'p',
    maxSteps,
    // What the session does: the history as it is now goes into the request.
    assembleRequest: () => ({ model: 'm', messages: history.map((m) => (m.role === 'tool' ? { role: 'tool', toolCallId: m.callId, content: m.content } : { role: 'user', content: m.content ?? '' })) }),
    onDelta: (_id, delta) => deltas.push(delta.text ?? delta.reasoning ?? ''),
    onRetry: () => {},
    append: (message) => history.push(message),
    runCall,
    newId: (prefix) => `${prefix}-${++ids}`,
  };
  return { ports, history, deltas };
}

const toolMessage = (c: LlmToolCall, content: string): ToolResultMessage => ({
  id: `tool-${c.id}`,
  role: 'tool',
  createdAt: Date.now(),
  callId: c.id,
  toolName: c.name,
  args: {},
  content,
  result: { status: 'SUCCESS', finalText: content, callId: c.id },
});

describe('runAgentLoop', () => {
  it('runs parallel calls at once and appends their results in call order, then asks again', async () => {
    const provider = scriptedProvider((_r, _s, step) =>
      step === 1 ? events(call('a'), call('b'), { type: 'done', stopReason: 'tool_calls' }) : events({ type: 'text-delta', text: 'done' }, { type: 'done', stopReason: 'stop' }),
    );
    const started: string[] = [];
    const release = new Map<string, () => void>();
    const { ports, history } = harness(provider, (c) => {
      started.push(c.id);
      return new Promise((resolve) => release.set(c.id, () => resolve(toolMessage(c, `result ${c.id}`))));
    });
    const outcome = runAgentLoop(ports, new AbortController().signal);
    // Both calls are running before either finished: they run concurrently.
    await waitUntil(() => started.length === 2);
    release.get('b')!();
    await Promise.resolve();
    release.get('a')!();
    expect(await outcome).toEqual({ stopReason: 'stop' });
    expect(history.map((m) => (m.role === 'tool' ? `tool ${m.callId}` : `${m.role} ${m.content}`))).toEqual(['assistant ', 'tool a', 'tool b', 'assistant done']);
    // The second request carried both results, in call order.
    expect(provider.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => (m as { toolCallId: string }).toolCallId)).toEqual(['a', 'b']);
  });

  it('a reply cut off by the token limit: its calls (empty or cut arguments) never run, and the model gets the message', async () => {
    const provider = scriptedProvider((_r, _s, step) =>
      step === 1
        ? events({ type: 'text-delta', text: 'Writing the file' }, call('cut', 'write_file', '{"path": "/tmp/notes.md", "content": "half of it'), call('empty', 'delete_file', ''), { type: 'done', stopReason: 'length' })
        : events({ type: 'text-delta', text: 'I will send it in parts.' }, { type: 'done', stopReason: 'stop' }),
    );
    const ran: string[] = [];
    const { ports, history } = harness(provider, async (c) => (ran.push(c.id), toolMessage(c, 'ran')));
    expect(await runAgentLoop(ports, new AbortController().signal)).toEqual({ stopReason: 'stop' });
    expect(ran).toEqual([]);
    const [cutReply, ...rest] = history;
    expect(cutReply).toMatchObject({ role: 'assistant', stopReason: 'length', toolCalls: [{ id: 'cut', name: 'write_file' }, { id: 'empty', name: 'delete_file' }] });
    const failed = rest.filter((m): m is ToolResultMessage => m.role === 'tool');
    expect(failed.map((m) => [m.callId, m.result.status])).toEqual([['cut', 'ERROR'], ['empty', 'ERROR']]);
    for (const m of failed) expect(m.content).toContain("your reply was cut off before the call's arguments were complete".replace(/^y/, 'Y'));
    expect(failed[1]!.content).toContain('delete_file was not run');
    // The next request carried the message for each call, so the model can call again.
    const toolTexts = provider.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => (m as { content: string }).content);
    expect(toolTexts).toEqual([expect.stringContaining('write_file was not run'), expect.stringContaining('delete_file was not run')]);
    expect(history.at(-1)).toMatchObject({ role: 'assistant', content: 'I will send it in parts.' });
  });

  it('an abort before a step is assembled sends nothing', async () => {
    const provider = scriptedProvider(() => events({ type: 'done', stopReason: 'stop' }));
    const { ports, history } = harness(provider, async (c) => toolMessage(c, 'x'));
    expect(await runAgentLoop(ports, AbortSignal.abort())).toEqual({ stopReason: 'aborted' });
    expect(provider.requests).toEqual([]);
    expect(history).toEqual([]);
  });

  it('an abort while streaming keeps the partial text and never runs the incomplete calls', async () => {
    const controller = new AbortController();
    const provider = scriptedProvider(async function* (_r, signal) {
      yield { type: 'text-delta', text: 'half an ans' };
      yield call('never');
      controller.abort(new Error('stop'));
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      yield { type: 'error', error: { kind: 'aborted', message: 'aborted' } };
    });
    let ran = 0;
    const { ports, history, deltas } = harness(provider, async (c) => {
      ran++;
      return toolMessage(c, 'x');
    });
    expect(await runAgentLoop(ports, controller.signal)).toEqual({ stopReason: 'aborted' });
    expect(ran).toBe(0);
    expect(deltas).toEqual(['half an ans']);
    expect(history).toMatchObject([{ role: 'assistant', content: 'half an ans', stopReason: 'aborted' }]);
    expect(history[0]).not.toHaveProperty('toolCalls');
    expect(history[0]).not.toHaveProperty('error');
  });

  it('an abort while calls run: a result arriving after it is still appended, and no step follows', async () => {
    const controller = new AbortController();
    const provider = scriptedProvider(() => events(call('slow'), call('quick'), { type: 'done', stopReason: 'tool_calls' }));
    const { ports, history } = harness(provider, (c, signal) => {
      if (c.id === 'quick') return Promise.resolve(toolMessage(c, 'quick result'));
      // A tool that ignores the abort for a while and answers late.
      return new Promise((resolve) => signal.addEventListener('abort', () => setTimeout(() => resolve(toolMessage(c, 'late result')), 20), { once: true }));
    });
    const outcome = runAgentLoop(ports, controller.signal);
    await waitUntil(() => provider.requests.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('user stop'));
    expect(await outcome).toEqual({ stopReason: 'aborted' });
    expect(provider.requests).toHaveLength(1);
    expect(history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['late result', 'quick result']);
  });

  it('stops at the step bound with an error naming the setting', async () => {
    let n = 0;
    const provider = scriptedProvider(() => events(call(`c${++n}`), { type: 'done', stopReason: 'tool_calls' }));
    let calls = 0;
    const { ports, history } = harness(
      provider,
      async (c) => {
        calls++;
        return toolMessage(c, 'again');
      },
      3,
    );
    const outcome = await runAgentLoop(ports, new AbortController().signal);
    expect(outcome).toMatchObject({ stopReason: 'max-steps', error: { name: 'MaxSteps', message: expect.stringContaining('limits.maxSteps') } });
    expect(provider.requests).toHaveLength(3);
    expect(calls).toBe(3);
    expect(history.filter((m) => m.role === 'tool')).toHaveLength(3);
  });

  it('a step bound below 1 still allows one step', async () => {
    const provider = scriptedProvider(() => events({ type: 'text-delta', text: 'hi' }, { type: 'done', stopReason: 'stop' }));
    const { ports } = harness(provider, async (c) => toolMessage(c, ''), 0);
    expect(await runAgentLoop(ports, new AbortController().signal)).toEqual({ stopReason: 'stop' });
  });

  it('a provider error ends the turn with its kind; the calls streamed before it never run', async () => {
    const provider = scriptedProvider(() => events(call('x'), { type: 'error', error: { kind: 'rate-limit', message: 'Slow down (Scripted).' } }));
    let ran = 0;
    const { ports, history } = harness(provider, async (c) => {
      ran++;
      return toolMessage(c, '');
    });
    expect(await runAgentLoop(ports, new AbortController().signal)).toEqual({ stopReason: 'error', error: { name: 'llm.rate-limit', message: 'Slow down (Scripted).' } });
    expect(ran).toBe(0);
    expect(history).toMatchObject([{ role: 'assistant', stopReason: 'error', error: { name: 'llm.rate-limit' } }]);
  });

  it('an answer cut by the token limit ends with "length"; an empty answer appends nothing', async () => {
    const cut = scriptedProvider(() => events({ type: 'text-delta', text: 'trunc' }, { type: 'done', stopReason: 'length' }));
    expect(await runAgentLoop(harness(cut, async (c) => toolMessage(c, '')).ports, new AbortController().signal)).toEqual({ stopReason: 'length' });
    const empty = scriptedProvider(() => events({ type: 'done', stopReason: 'stop' }));
    const { ports, history } = harness(empty, async (c) => toolMessage(c, ''));
    expect(await runAgentLoop(ports, new AbortController().signal)).toEqual({ stopReason: 'stop' });
    expect(history).toEqual([]);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
