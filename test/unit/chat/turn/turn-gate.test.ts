// The turn gate: at most one turn per session; who must wait for it waits on a promise
// (whenIdle, a queueing exclusive), woken when the turn ends — an MCP App's call included.
import { describe, expect, it } from 'vitest';
import { TurnGate } from '../../../../electron/runtime/chat/turn/turn-gate.ts';

function gate(closed: () => string | undefined = () => undefined) {
  let n = 0;
  return new TurnGate({ newId: (p) => `${p}-${++n}`, closedReason: closed, started: () => {}, finished: () => {} });
}

/** A turn that runs until `end()` is called. */
function heldTurn(turns: TurnGate) {
  let end!: () => void;
  const started = turns.start(() => new Promise((resolve) => (end = () => resolve({ stopReason: 'stop' }))));
  if (!started.ok) throw new Error('the turn did not start');
  return { end: () => end(), done: started.done };
}

describe('TurnGate', () => {
  it('whenIdle resolves at once when no turn runs, and as soon as the running one ends', async () => {
    const turns = gate();
    expect(await turns.whenIdle()).toBe(true);
    const turn = heldTurn(turns);
    let idle: boolean | undefined;
    const waiting = turns.whenIdle().then((value) => (idle = value));
    await Promise.resolve();
    expect(idle).toBeUndefined();
    turn.end();
    await turn.done;
    await waiting;
    expect(idle).toBe(true);
    expect(turns.running).toBe(false);
  });

  it('whenIdle gives up with false when its signal aborts first (and forgets the waiter)', async () => {
    const turns = gate();
    const turn = heldTurn(turns);
    const controller = new AbortController();
    const waiting = turns.whenIdle(controller.signal);
    controller.abort();
    expect(await waiting).toBe(false);
    expect(await turns.whenIdle(AbortSignal.abort())).toBe(false);
    turn.end();
    await turn.done;
  });

  it('exclusive without `wait` is refused while a turn runs; with `wait` it queues and runs right after', async () => {
    const turns = gate();
    const turn = heldTurn(turns);
    expect(await turns.exclusive(async () => 'now')).toEqual({ ok: false, message: 'A turn is running in this session; wait for it or abort it.', busy: true });
    const order: string[] = [];
    const queued = turns.exclusive(async () => order.push('app call'), new AbortController().signal);
    const second = turns.exclusive(async () => order.push('second app call'), new AbortController().signal);
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    turn.end();
    await turn.done;
    expect(await queued).toMatchObject({ ok: true });
    expect(await second).toMatchObject({ ok: true });
    // One at a time: the second waited for the first to let go of the gate.
    expect(order).toEqual(['app call', 'second app call']);
  });

  it('a queued exclusive whose wait ends first is refused as busy, and a closed session refuses at once', async () => {
    const turns = gate();
    const turn = heldTurn(turns);
    const wait = new AbortController();
    const queued = turns.exclusive(async () => 'never', wait.signal);
    wait.abort();
    expect(await queued).toEqual({ ok: false, message: 'A turn is still running in this session.', busy: true });
    turn.end();
    await turn.done;
    const closed = gate(() => 'Session s is closed.');
    expect(await closed.exclusive(async () => 'x', new AbortController().signal)).toEqual({ ok: false, message: 'Session s is closed.' });
  });
});
