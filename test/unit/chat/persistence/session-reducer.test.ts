// The one fold of session records (session-reducer.ts): its summary layer gives what lists need and
// ignores the rest; the whole layer adds settings, approvals and turns; bad payloads are passed over.
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../shared/chat.ts';
import type { Variable } from '../../../../shared/variables.ts';
import type { SessionRecord } from '../../../../electron/runtime/chat/persistence/session-records.ts';
import {
  applySessionRecord,
  applySummaryRecord,
  emptyReplayState,
  emptySummaryState,
  settleTimes,
  type ReplayKeep,
} from '../../../../electron/runtime/chat/persistence/session-reducer.ts';

const message = (id: string, parentId?: string): ChatMessage => ({ id, ...(parentId ? { parentId } : {}), role: 'user', content: id, createdAt: 1 }) as ChatMessage;
const variable = (name: string, type = 'ToolCallResult'): Variable => ({ name, type, value: name, tags: [], size: name.length, createdAt: 1, updatedAt: 1, accessedAt: 1 }) as Variable;
const whole: ReplayKeep<ChatMessage, Variable> = { message: (m) => m, variable: (v) => v };
const ask = (id: string, callId: string, type: 'call' | 'result' = 'call') => ({ id, callId, type, ...(type === 'result' ? { result: { status: 'success', text: 'shown' } } : {}) });

const records = [
  { t: 'session', v: 1, id: 's', createdAt: 100, title: '' },
  { t: 'message', at: 101, message: message('a') },
  { t: 'message', at: 102, message: message('b', 'a') },
  { t: 'message', at: 103, message: message('c', 'a') },
  { t: 'head', at: 104, id: 'b' },
  { t: 'title', at: 105, title: 'Named' },
  { t: 'var', at: 106, variable: variable('x') },
  { t: 'var', at: 107, variable: variable('y') },
  { t: 'var', at: 108, variable: variable('x') },
  { t: 'var', at: 109, variable: null },
  { t: 'var-remove', at: 110, name: 'y' },
  { t: 'chat', at: 111, chat: { model: 'm' } },
  { t: 'tool-selection', at: 112, selection: { mode: 'all' } },
  { t: 'found-tools', at: 113, names: ['one', 2, 'two'] },
  { t: 'turn', at: 114, turnId: 't1', state: 'started' },
  { t: 'approval-asked', at: 115, request: ask('r1', 'c1') },
  { t: 'approval-asked', at: 116, request: ask('r2', 'c2', 'result') },
  { t: 'approval', at: 117, request: ask('r1', 'c1'), decision: { kind: 'allow' } },
  { t: 'approval-memory', at: 118, data: { kept: true } },
  { t: 'flags', at: 999, pinned: true },
] as unknown as SessionRecord[];

describe('session reducer', () => {
  it('folds a whole session: tree, title, variables, settings, open turn and unanswered asks', () => {
    const state = emptyReplayState<ChatMessage, Variable>();
    for (const record of records) applySessionRecord(state, record, whole);
    expect(state.title).toBe('Named');
    expect([state.createdAt, state.updatedAt]).toEqual([100, 118]); // flags are not activity
    expect(state.flags).toEqual({ pinned: true });
    expect(state.tree.path().map((m) => m.id)).toEqual(['a', 'b']);
    expect(state.tree.size).toBe(3);
    expect([...state.variables.keys()]).toEqual(['x']); // re-set moves to the end; a null variable is passed over
    expect(state.chat).toEqual({ model: 'm' });
    expect(state.toolSelection).toEqual({ mode: 'all' });
    expect(state.foundTools).toEqual(['one', 'two']);
    expect(state.openTurn).toEqual({ turnId: 't1', at: 114 });
    expect([...state.unansweredAsks]).toEqual([['r2', 'c2']]);
    expect([...state.unansweredResults]).toEqual([['c2', { status: 'success', text: 'shown' }]]);
    expect(state.approvalMemory).toEqual({ kept: true });

    applySessionRecord(state, { t: 'turn', at: 120, turnId: 't1', state: 'finished', stopReason: 'stop' } as SessionRecord, whole);
    expect(state.openTurn).toBeUndefined();
    applySessionRecord(state, { t: 'turn', at: 121, turnId: 't2', state: 'started' }, whole);
    expect(state.unansweredAsks.size + state.unansweredResults.size).toBe(0);
  });

  it('the summary layer keeps what the caller asks of messages and variables, and nothing else', () => {
    const state = emptySummaryState<{ id: string; parentId?: string | null; n: number }, number>();
    let n = 0;
    const keep = { message: (m: ChatMessage) => ({ id: m.id, parentId: m.parentId, n: n++ }), variable: (v: Variable) => (v.name === 'y' ? undefined : v.value.length) };
    for (const record of records) applySummaryRecord(state, record, keep);
    expect(state.tree.path()).toEqual([{ id: 'a', parentId: undefined, n: 0 }, { id: 'b', parentId: 'a', n: 1 }]);
    expect([...state.variables]).toEqual([['x', 1]]);
    expect(Object.keys(state).sort()).toEqual(['createdAt', 'flags', 'title', 'tree', 'updatedAt', 'variables']);
    expect(state.updatedAt).toBe(118);
  });

  it('an empty title falls back to the default, and `vars` replaces every variable', () => {
    const state = emptyReplayState<ChatMessage, Variable>();
    applySessionRecord(state, records[0]!, whole);
    expect(state.title).toBe('New chat');
    applySessionRecord(state, { t: 'var', at: 1, variable: variable('old') }, whole);
    applySessionRecord(state, { t: 'vars', at: 2, data: { variables: [variable('p'), null, variable('q')] } } as unknown as SessionRecord, whole);
    expect([...state.variables.keys()]).toEqual(['p', 'q']);
  });

  it('settleTimes reads the file time only when no record gave one', () => {
    const dated = { createdAt: 5, updatedAt: 0 };
    settleTimes(dated, () => {
      throw new Error('not read');
    });
    expect(dated).toEqual({ createdAt: 5, updatedAt: 5 });
    const undated = { createdAt: 0, updatedAt: 0 };
    settleTimes(undated, () => 42);
    expect(undated).toEqual({ createdAt: 42, updatedAt: 42 });
  });
});
