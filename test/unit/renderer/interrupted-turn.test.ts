// The chat's state for a turn a restart cut off: "Interrupted" ends the chat until a turn starts.
import { describe, expect, it } from 'vitest';
import { applyEvent, applySnapshot } from '../../../renderer/src/store/apply-event.ts';
import { emptyAppState } from '../../../renderer/src/store/app-state.ts';
import { interruptionText } from '../../../renderer/src/chat/interrupted-notice.tsx';
import type { SessionSnapshot } from '../../../shared/api.ts';
import type { TurnInterruption } from '../../../shared/chat.ts';

const S = 's1';
const interruption: TurnInterruption = { turnId: 'turn-1', during: 'tool', calls: [{ callId: 'c1', toolName: 'slow', waiting: false }], retryFrom: 'u1' };

function snapshot(interrupted?: TurnInterruption): SessionSnapshot {
  return {
    session: { id: S, title: 't', createdAt: 1, updatedAt: 1, messageCount: 2 },
    messages: [
      { id: 'u1', role: 'user', content: 'run slow', createdAt: 1 },
      { id: 'a1', role: 'assistant', content: '', createdAt: 2, toolCalls: [{ id: 'c1', name: 'slow', args: { ms: 5000 } }] },
    ],
    pendingApprovals: [],
    running: false,
    ...(interrupted ? { interrupted } : {}),
  };
}

describe('an interrupted turn in the chat state', () => {
  it('ends the chat with an Interrupted row and marks the calls it left', () => {
    const state = emptyAppState();
    applySnapshot(snapshot(interruption), state, 10);
    const chat = state.chats[S]!;
    expect(chat.rows.map((r) => r.kind)).toEqual(['user', 'assistant', 'interrupted']);
    expect(chat.rows.at(-1)).toMatchObject({ kind: 'interrupted', interruption: { during: 'tool', retryFrom: 'u1' } });
    expect(chat.toolCalls.c1!.status).toBe('interrupted');
    expect(chat.running).toBe(false);
  });

  it('is gone once a turn starts (Continue): the call waits for what the turn does, a card asks again', () => {
    const state = emptyAppState();
    applySnapshot(snapshot(interruption), state, 10);
    applyEvent({ type: 'session.turn', sessionId: S, turnId: 'turn-2', state: 'started' }, state, 20);
    const chat = state.chats[S]!;
    expect(chat.rows.map((r) => r.kind)).toEqual(['user', 'assistant']);
    expect(chat.toolCalls.c1!.status).toBe('pending');
    applyEvent(
      { type: 'approval.requested', sessionId: S, request: { id: 'r1', type: 'execution', sessionId: S, callId: 'c1', toolName: 'slow', groupName: 'demo', args: { ms: 5000 }, policy: 'ask-always', note: 'asked again' } },
      state,
      30,
    );
    expect(chat.toolCalls.c1!.status).toBe('approval');
    expect(chat.approvalOrder).toEqual(['r1']);
  });

  it('a snapshot without an interruption shows none; the rows of a new path drop it', () => {
    const state = emptyAppState();
    applySnapshot(snapshot(), state, 10);
    expect(state.chats[S]!.rows.some((r) => r.kind === 'interrupted')).toBe(false);
    applySnapshot(snapshot(interruption), state, 10);
    applyEvent({ type: 'session.path', sessionId: S, messages: snapshot().messages.slice(0, 1), branches: {} }, state, 20);
    expect(state.chats[S]!.rows.map((r) => r.kind)).toEqual(['user']);
  });

  it('says what the turn was doing and what Continue does', () => {
    expect(interruptionText({ ...interruption, during: 'answer', calls: [] })).toMatch(/while the model was answering.*Retry answers your message again/);
    expect(interruptionText({ ...interruption, during: 'approval', calls: [{ callId: 'c1', toolName: 'guarded', waiting: true }] })).toBe('Tooldesk stopped while guarded waited for your approval. Continue asks again.');
    expect(interruptionText(interruption)).toMatch(/while slow was running, so it may have done part of its work. Continue asks before running it again/);
  });
});
