import { describe, expect, it } from 'vitest';
import { PendingAsks, reasonText } from '../../../electron/runtime/base/pending-asks.ts';

type Q = { id: string; text: string };

function make(canAsk = () => true) {
  const log: string[] = [];
  const asks = new PendingAsks<Q, string>({
    canAsk,
    requested: (q) => log.push(`requested ${q.id}`),
    resolved: (q, a) => log.push(`resolved ${q.id} ${a === null ? 'dropped' : a}`),
    dropped: (reason) => `dropped: ${reasonText(reason) || 'no reason'}`,
    unattended: () => 'nobody',
  });
  return { asks, log };
}

describe('PendingAsks', () => {
  it('answers a question once; a second answer or an unknown id is refused', async () => {
    const { asks, log } = make();
    const answer = asks.ask({ id: 'a', text: 'ok?' });
    expect(asks.pending().map((q) => q.id)).toEqual(['a']);
    expect(asks.answer('a', 'yes')).toBe(true);
    expect(asks.answer('a', 'no')).toBe(false);
    expect(asks.answer('zzz', 'no')).toBe(false);
    await expect(answer).resolves.toBe('yes');
    expect(asks.size).toBe(0);
    expect(log).toEqual(['requested a', 'resolved a yes']);
  });

  it('drops a question when its signal aborts, with the reason, and reports it once', async () => {
    const { asks, log } = make();
    const controller = new AbortController();
    const answer = asks.ask({ id: 'a', text: 'ok?' }, controller.signal);
    controller.abort(new Error('turn stopped'));
    controller.abort(new Error('again'));
    await expect(answer).resolves.toBe('dropped: turn stopped');
    // An answer arriving after the abort finds nothing to answer.
    expect(asks.answer('a', 'yes')).toBe(false);
    expect(log).toEqual(['requested a', 'resolved a dropped']);
  });

  it('an already aborted signal never shows a card', async () => {
    const { asks, log } = make();
    await expect(asks.ask({ id: 'a', text: '' }, AbortSignal.abort('gone'))).resolves.toBe('dropped: gone');
    expect(log).toEqual([]);
    expect(asks.size).toBe(0);
  });

  it('answers "unattended" at once when no one can answer, and shows nothing', async () => {
    let attached = false;
    const { asks, log } = make(() => attached);
    await expect(asks.ask({ id: 'a', text: '' })).resolves.toBe('nobody');
    attached = true;
    const later = asks.ask({ id: 'b', text: '' });
    expect(asks.answer('b', 'yes')).toBe(true);
    await expect(later).resolves.toBe('yes');
    expect(log).toEqual(['requested b', 'resolved b yes']);
  });

  it('rejectAll drops every pending question and detaches their signals', async () => {
    const { asks, log } = make();
    const controller = new AbortController();
    const all = [asks.ask({ id: 'a', text: '' }, controller.signal), asks.ask({ id: 'b', text: '' }), asks.ask({ id: 'c', text: '' })];
    expect(asks.answer('b', 'yes')).toBe(true);
    expect(asks.rejectAll(new Error('session closed'))).toBe(2);
    await expect(Promise.all(all)).resolves.toEqual(['dropped: session closed', 'yes', 'dropped: session closed']);
    // The signal's later abort must not report "a" a second time.
    controller.abort(new Error('late'));
    expect(log.filter((l) => l.startsWith('resolved a'))).toEqual(['resolved a dropped']);
    expect(asks.rejectAll('nothing left')).toBe(0);
  });

  it('a second question under a taken id drops the first instead of orphaning it', async () => {
    const { asks } = make();
    const first = asks.ask({ id: 'same', text: '1' });
    const second = asks.ask({ id: 'same', text: '2' });
    await expect(first).resolves.toBe('dropped: asked again under the same id');
    expect(asks.pending().map((q) => q.text)).toEqual(['2']);
    asks.answer('same', 'two');
    await expect(second).resolves.toBe('two');
  });

  it('hooks that are absent are not required', async () => {
    const asks = new PendingAsks<Q, number>({ dropped: () => -1, unattended: () => 0 });
    const answer = asks.ask({ id: 'x', text: '' });
    asks.answer('x', 7);
    await expect(answer).resolves.toBe(7);
  });
});
