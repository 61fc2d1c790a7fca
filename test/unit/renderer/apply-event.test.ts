import { describe, expect, it } from 'vitest';
import { applyEvent, applySnapshot } from '../../../renderer/src/store/apply-event.ts';
import { emptyAppState, emptyChat, MAX_TOOL_TOASTS, type AppState } from '../../../renderer/src/store/app-state.ts';
import type { ApiEvent } from '../../../shared/api.ts';
import type { ApprovalRequest, ToolExecuteResult } from '../../../shared/tools.ts';

const S = 's1';

function stateWithChat(): AppState {
  const state = emptyAppState();
  state.chats[S] = emptyChat(S);
  return state;
}

function run(state: AppState, ...events: ApiEvent[]): AppState {
  let t = 1000;
  for (const event of events) applyEvent(event, state, (t += 100));
  return state;
}

const request = (id: string, callId: string, type: 'execution' | 'result' = 'execution'): ApprovalRequest => ({
  id,
  type,
  sessionId: S,
  callId,
  toolName: 'echo',
  groupName: 'demo',
  args: { text: 'hi' },
  policy: type === 'execution' ? 'ask-once' : 'always',
  ...(type === 'result' ? { result: { status: 'SUCCESS' as const, text: 'hi' } } : {}),
});

const ok: ToolExecuteResult = { status: 'SUCCESS', formattedText: 'hi', finalText: 'hi', durationMs: 5 };

describe('applyEvent', () => {
  it('streams deltas into one assistant row and finalises it with the message', () => {
    const state = run(
      stateWithChat(),
      { type: 'session.turn', sessionId: S, turnId: 't1', state: 'started' },
      { type: 'session.delta', sessionId: S, messageId: 'm1', text: 'Hel' },
      { type: 'session.delta', sessionId: S, messageId: 'm1', text: 'lo' },
    );
    const chat = state.chats[S]!;
    expect(chat.running).toBe(true);
    expect(chat.rows).toHaveLength(1);
    expect(chat.rows[0]).toMatchObject({ kind: 'assistant', content: 'Hello', streaming: true });

    run(state, {
      type: 'session.message',
      sessionId: S,
      message: { role: 'assistant', id: 'm1', createdAt: 1, content: 'Hello!', toolCalls: [{ id: 'c1', name: 'echo', args: { text: 'x' } }] },
    });
    expect(chat.rows).toHaveLength(1);
    expect(chat.rows[0]).toMatchObject({ kind: 'assistant', content: 'Hello!', streaming: false, callIds: ['c1'] });
    expect(chat.toolCalls.c1).toMatchObject({ toolName: 'echo', status: 'pending' });

    run(state, { type: 'session.turn', sessionId: S, turnId: 't1', state: 'finished', stopReason: 'stop' });
    expect(chat.running).toBe(false);
  });

  it('keeps user rows once and ignores events of sessions not open here', () => {
    const state = stateWithChat();
    const user = { type: 'session.message', sessionId: S, message: { role: 'user', id: 'u1', createdAt: 1, content: 'hi' } } as const;
    run(state, user, user, { type: 'session.delta', sessionId: 'other', messageId: 'x', text: 'ignored' });
    expect(state.chats[S]!.rows.map((r) => r.id)).toEqual(['u1']);
    expect(state.chats.other).toBeUndefined();
  });

  it('walks a tool call through approval, running, progress and done', () => {
    const state = run(
      stateWithChat(),
      { type: 'session.message', sessionId: S, message: { role: 'assistant', id: 'm1', createdAt: 1, content: '', toolCalls: [{ id: 'c1', name: 'echo', args: {} }] } },
      { type: 'tool.started', sessionId: S, callId: 'c1', toolName: 'echo', groupName: 'demo', args: { text: 'hi' }, summary: 'echo hi' },
      { type: 'approval.requested', sessionId: S, request: request('r1', 'c1') },
    );
    const chat = state.chats[S]!;
    expect(chat.toolCalls.c1).toMatchObject({ status: 'approval', groupName: 'demo', summary: 'echo hi', args: { text: 'hi' } });
    expect(chat.approvalOrder).toEqual(['r1']);
    // The call belongs to the assistant message: no standalone row.
    expect(chat.rows.map((r) => r.kind)).toEqual(['assistant']);

    run(state, { type: 'approval.resolved', sessionId: S, requestId: 'r1', decision: { decision: 'once' } });
    expect(chat.approvalOrder).toEqual([]);
    expect(chat.approvals.r1).toBeUndefined();
    expect(chat.toolCalls.c1!.status).toBe('running');
    expect(chat.toolCalls.c1!.startedAt).toBeTypeOf('number');

    run(
      state,
      { type: 'tool.progress', sessionId: S, callId: 'c1', update: { text: 'line 1\n' } },
      { type: 'tool.progress', sessionId: S, callId: 'c1', update: { text: 'line 2\n' } },
    );
    expect(chat.toolCalls.c1!.partial).toBe('line 1\nline 2\n');

    run(state, { type: 'tool.finished', sessionId: S, callId: 'c1', toolName: 'echo', result: ok });
    expect(chat.toolCalls.c1).toMatchObject({ status: 'done', result: ok });
  });

  it('a notification in a progress update becomes a toast of the chat, at most MAX_TOOL_TOASTS kept', () => {
    const state = stateWithChat();
    const chat = state.chats[S]!;
    run(state, { type: 'tool.started', sessionId: S, callId: 'c1', toolName: 'slow_count', groupName: 'owui', args: {} });
    run(state, { type: 'tool.progress', sessionId: S, callId: 'c1', update: { text: '[warning] low disk\n', notification: { level: 'warning', text: 'low disk' } } });
    expect(chat.toolCalls.c1!.partial).toBe('[warning] low disk\n');
    expect(chat.toasts).toEqual([{ id: 'c1:1', level: 'warning', text: 'low disk', toolName: 'slow_count', createdAt: 1100 }]);
    for (let i = 0; i < MAX_TOOL_TOASTS + 1; i++) run(state, { type: 'tool.progress', sessionId: S, callId: 'c1', update: { notification: { level: 'info', text: `n${i}` } } });
    expect(chat.toasts.map((t) => t.text)).toEqual(Array.from({ length: MAX_TOOL_TOASTS }, (_, i) => `n${i + 1}`));
    expect(new Set(chat.toasts.map((t) => t.id)).size).toBe(MAX_TOOL_TOASTS);
  });

  it('marks a rejected call and drops cards resolved with null (abort)', () => {
    const state = run(
      stateWithChat(),
      { type: 'approval.requested', sessionId: S, request: request('r1', 'c1') },
      { type: 'approval.requested', sessionId: S, request: request('r2', 'c2') },
      { type: 'approval.requested', sessionId: S, request: request('r3', 'c3') },
    );
    const chat = state.chats[S]!;
    // Calls nobody announced get their own rows, in order.
    expect(chat.rows.map((r) => (r.kind === 'tool' ? r.callId : r.kind))).toEqual(['c1', 'c2', 'c3']);
    expect(chat.approvalOrder).toEqual(['r1', 'r2', 'r3']);

    // Answered in any order.
    run(state, { type: 'approval.resolved', sessionId: S, requestId: 'r2', decision: { decision: 'reject', reason: 'no' } });
    expect(chat.toolCalls.c2!.status).toBe('rejected');
    expect(chat.approvalOrder).toEqual(['r1', 'r3']);

    run(
      state,
      { type: 'approval.resolved', sessionId: S, requestId: 'r1', decision: null },
      { type: 'approval.resolved', sessionId: S, requestId: 'r3', decision: null },
    );
    expect(chat.approvalOrder).toEqual([]);
    expect(Object.keys(chat.approvals)).toEqual([]);
    expect(chat.toolCalls.c1!.status).toBe('rejected');
    // An unknown request id changes nothing.
    run(state, { type: 'approval.resolved', sessionId: S, requestId: 'nope', decision: null });
    expect(chat.approvalOrder).toEqual([]);
  });

  it('maps result statuses and keeps result approvals apart from execution ones', () => {
    const state = run(
      stateWithChat(),
      { type: 'tool.started', sessionId: S, callId: 'c1', toolName: 'echo', groupName: 'demo', args: {} },
      { type: 'approval.requested', sessionId: S, request: request('r1', 'c1', 'result') },
    );
    const chat = state.chats[S]!;
    expect(chat.toolCalls.c1!.status).toBe('approval');
    run(
      state,
      { type: 'approval.resolved', sessionId: S, requestId: 'r1', decision: { decision: 'reject', reason: 'secret' } },
      { type: 'tool.finished', sessionId: S, callId: 'c1', toolName: 'echo', result: { status: 'RESULT_REJECTED', rejectReason: 'secret', finalText: 'secret' } },
    );
    expect(chat.toolCalls.c1!.status).toBe('rejected');
    run(state, { type: 'tool.finished', sessionId: S, callId: 'c9', toolName: 'x', result: { status: 'NOT_FOUND', error: 'no tool x', finalText: 'no tool x' } });
    expect(chat.toolCalls.c9!.status).toBe('error');
  });

  it('adds an error notice when a turn fails, and bumps variablesVersion', () => {
    const state = run(
      stateWithChat(),
      { type: 'session.delta', sessionId: S, messageId: 'm1', text: 'part' },
      { type: 'session.turn', sessionId: S, turnId: 't', state: 'finished', stopReason: 'error', error: { name: 'LlmError', message: 'connection refused' } },
      { type: 'variables.changed', sessionId: S },
    );
    const chat = state.chats[S]!;
    expect(chat.rows[0]).toMatchObject({ streaming: false });
    expect(chat.rows[1]).toMatchObject({ kind: 'notice', tone: 'error', text: 'connection refused' });
    expect(chat.variablesVersion).toBe(1);
  });

  it('replaces tools, settings and the session list wholesale', () => {
    const state = emptyAppState();
    run(
      state,
      { type: 'tools.changed', tools: { groups: [{ name: 'g', enabled: true, builtin: false, tools: [] }], diagnostics: [] } },
      { type: 'sessions.changed', sessions: [{ id: 'a', title: 'A', createdAt: 1, updatedAt: 2, messageCount: 0 }] },
    );
    expect(state.tools.groups[0]!.name).toBe('g');
    expect(state.sessions.map((s) => s.id)).toEqual(['a']);
  });
});

describe('applySnapshot', () => {
  it('rebuilds rows, tool calls and pending cards from a session snapshot', () => {
    const state = emptyAppState();
    state.sessions = [{ id: S, title: 'old', createdAt: 1, updatedAt: 1, messageCount: 0 }];
    applySnapshot(
      {
        session: { id: S, title: 'new', createdAt: 1, updatedAt: 5, messageCount: 4 },
        running: true,
        messages: [
          { role: 'user', id: 'u1', createdAt: 1, content: 'list' },
          { role: 'assistant', id: 'a1', createdAt: 2, content: '', toolCalls: [{ id: 'c1', name: 'ls', args: { path: '.' } }] },
          { role: 'tool', id: 't1', createdAt: 3, callId: 'c1', toolName: 'ls', groupName: 'fs', content: 'a b', result: { status: 'SUCCESS', finalText: 'a b' } },
          // A /tool run: no assistant message announced it.
          { role: 'tool', id: 't2', createdAt: 4, callId: 'c2', toolName: 'echo', content: 'x', result: { status: 'ERROR', error: 'bad', finalText: 'bad' } },
        ],
        pendingApprovals: [request('r1', 'c3')],
      },
      state,
    );
    const chat = state.chats[S]!;
    expect(chat.rows.map((r) => r.kind)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(chat.toolCalls.c1).toMatchObject({ status: 'done', groupName: 'fs' });
    expect(chat.toolCalls.c2).toMatchObject({ status: 'error' });
    expect(chat.toolCalls.c3).toMatchObject({ status: 'approval' });
    expect(chat.running).toBe(true);
    expect(state.sessions[0]!.title).toBe('new');
  });
});
