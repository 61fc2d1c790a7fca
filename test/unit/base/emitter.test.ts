// The one event primitive of the runtime: subscription order, disposers, and the error policy
// (a throwing listener never stops the others; its error is reported, never rethrown).
import { describe, expect, it } from 'vitest';
import { Emitter } from '../../../electron/runtime/base/emitter.ts';

describe('Emitter', () => {
  it('calls listeners in subscription order with the value, until disposed', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    const offA = emitter.event((n) => seen.push(`a${n}`));
    emitter.event((n) => seen.push(`b${n}`));
    emitter.fire(1);
    offA();
    offA(); // twice is harmless
    emitter.fire(2);
    expect(seen).toEqual(['a1', 'b1', 'b2']);
    expect(emitter.size).toBe(1);
    emitter.dispose();
    emitter.fire(3);
    expect(seen).toEqual(['a1', 'b1', 'b2']);
    expect(emitter.size).toBe(0);
  });

  it('keeps calling the others when a listener throws, and reports each error once', () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<string>({ onListenerError: (error) => errors.push(error) });
    const seen: string[] = [];
    emitter.event(() => {
      throw new Error('first broke');
    });
    emitter.event((v) => seen.push(v));
    emitter.event(() => {
      throw new Error('third broke');
    });
    emitter.event((v) => seen.push(`${v}!`));
    expect(() => emitter.fire('x')).not.toThrow();
    expect(seen).toEqual(['x', 'x!']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['first broke', 'third broke']);
  });

  it('survives an error reporter that throws too, and has a silent default', () => {
    const broken = new Emitter<number>({
      onListenerError: () => {
        throw new Error('reporter broke');
      },
    });
    const seen: number[] = [];
    broken.event(() => {
      throw new Error('listener broke');
    });
    broken.event((n) => seen.push(n));
    expect(() => broken.fire(7)).not.toThrow();
    const silent = new Emitter<number>();
    silent.event(() => {
      throw new Error('nobody hears this');
    });
    silent.event((n) => seen.push(n));
    expect(() => silent.fire(8)).not.toThrow();
    expect(seen).toEqual([7, 8]);
  });

  it('lets a listener subscribe or unsubscribe others while it runs: added ones wait, removed ones are skipped', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    let offC: () => void = () => {};
    emitter.event((n) => {
      seen.push(`a${n}`);
      if (n === 1) {
        emitter.event((m) => seen.push(`late${m}`));
        offC();
      }
    });
    emitter.event((n) => seen.push(`b${n}`));
    offC = emitter.event((n) => seen.push(`c${n}`));
    emitter.fire(1);
    emitter.fire(2);
    expect(seen).toEqual(['a1', 'b1', 'a2', 'b2', 'late2']);
  });

  it('gives each subscription its own disposer, even for the same function', () => {
    const emitter = new Emitter<number>();
    let calls = 0;
    const listener = () => void calls++;
    const off1 = emitter.event(listener);
    emitter.event(listener);
    emitter.fire(0);
    off1();
    emitter.fire(0);
    expect(calls).toBe(3);
  });
});
