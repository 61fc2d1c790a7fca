import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RunningTools, runTool, toRunResult } from '../../../electron/runtime/tools/run-tool.ts';
import { makeTool } from './make-tool.ts';

const base = { callId: 'c1', sessionId: 's1', timeoutMs: 1000 };

describe('runTool', () => {
  it('passes args and a context with ids, signal and onUpdate', async () => {
    const updates: string[] = [];
    const tool = makeTool('t', async (args, ctx) => {
      ctx.onUpdate({ text: 'half' });
      return { data: { args, callId: ctx.callId, sessionId: ctx.sessionId, hasSignal: ctx.signal instanceof AbortSignal } };
    });
    const out = await runTool(tool, { a: 1 }, { ...base, onUpdate: (u) => updates.push(u.text ?? '') });
    expect(out).toEqual({ kind: 'ok', run: { data: { args: { a: 1 }, callId: 'c1', sessionId: 's1', hasSignal: true } } });
    expect(updates).toEqual(['half']);
  });

  it('turns a throw into its message', async () => {
    const out = await runTool(makeTool('t', async () => { throw new Error('disk full'); }), {}, base);
    expect(out).toEqual({ kind: 'threw', message: 'disk full' });
  });

  it('stops waiting for a tool that never resolves once the timeout passes, and aborts its signal', async () => {
    let seen: AbortSignal | undefined;
    const tool = makeTool('t', (_a, ctx) => ((seen = ctx.signal), new Promise(() => {})));
    const started = Date.now();
    const out = await runTool(tool, {}, { ...base, timeoutMs: 30, stopGraceMs: 50 });
    expect(out).toEqual({ kind: 'timeout', timeoutMs: 30 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(seen?.aborted).toBe(true);
  });

  it('gives a tool that first reads its signal after the deadline one already aborted, with the reason', async () => {
    let seen: AbortSignal | undefined;
    // Made lazily: the signal is read only once the run has been stopped.
    const tool = makeTool('t', (_a, ctx) => new Promise((resolve) => setTimeout(() => resolve({ data: (seen = ctx.signal).aborted }), 40)));
    const out = await runTool(tool, {}, { ...base, timeoutMs: 10, stopGraceMs: 200 });
    expect(out).toEqual({ kind: 'timeout', timeoutMs: 10, stopped: { data: true } });
    expect(seen?.reason).toMatchObject({ name: 'TimeoutError', message: 'timed out after 10 ms' });
  });

  it("gives the tool one signal however often it reads it, aborted by the caller's abort", async () => {
    const caller = new AbortController();
    const reads: AbortSignal[] = [];
    const tool = makeTool('t', (_a, ctx) => {
      const { signal } = ctx;
      reads.push(ctx.signal, ctx.signal, signal);
      return new Promise(() => {});
    });
    setTimeout(() => caller.abort(new Error('user pressed stop')), 5);
    const out = await runTool(tool, {}, { ...base, signal: caller.signal, stopGraceMs: 20 });
    expect(out).toEqual({ kind: 'aborted', reason: 'user pressed stop' });
    expect(new Set(reads).size).toBe(1);
    expect(reads[0]!.aborted).toBe(true);
  });

  it('reports the caller aborting as aborted, not as a timeout', async () => {
    const controller = new AbortController();
    const tool = makeTool('t', () => new Promise(() => {}));
    setTimeout(() => controller.abort(new Error('user pressed stop')), 5);
    const out = await runTool(tool, {}, { ...base, signal: controller.signal, stopGraceMs: 50 });
    expect(out).toEqual({ kind: 'aborted', reason: 'user pressed stop' });
  });

  it("stops the tool when the session ends (lifetime), with the session's reason", async () => {
    const lifetime = new RunningTools();
    const tool = makeTool('t', () => new Promise(() => {}));
    setTimeout(() => lifetime.end(new Error('session closed')), 5);
    const out = await runTool(tool, {}, { ...base, signal: new AbortController().signal, lifetime, stopGraceMs: 50 });
    expect(out).toEqual({ kind: 'aborted', reason: 'session closed' });
    // A call started once the session has ended does not run at all.
    let ran = false;
    const after = await runTool(makeTool('t', async () => { ran = true; }), {}, { ...base, lifetime });
    expect(after).toEqual({ kind: 'aborted', reason: 'session closed' });
    expect(ran).toBe(false);
  });

  it("leaves no listener on the caller's signal and no entry in the session's running calls once a call is over", async () => {
    const caller = new AbortController();
    const lifetime = new RunningTools();
    const options = { ...base, signal: caller.signal, lifetime };
    for (let i = 0; i < 50; i++) await runTool(makeTool('t', async () => ({ data: i })), {}, options);
    await runTool(makeTool('t', async () => { throw new Error('x'); }), {}, options);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    expect(lifetime.size).toBe(0);
  });

  it('gives the tool its deadline in the context, and waits a grace for it to stop once it passes', async () => {
    let deadline: number | undefined;
    // Stops 100 ms after its signal fires (as a runner killing a process group does) and says so.
    const tool = makeTool('t', (_a, ctx) => {
      deadline = ctx.timeoutMs;
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => setTimeout(() => resolve({ status: 'ERROR', error: 'stopped', logs: 'got to step 3' }), 100)));
    });
    const started = Date.now();
    const out = await runTool(tool, {}, { ...base, timeoutMs: 30 });
    expect(deadline).toBe(30);
    // Still a timeout (decided when the deadline passed), carrying what the stopped tool reported.
    expect(out).toEqual({ kind: 'timeout', timeoutMs: 30, stopped: { status: 'ERROR', error: 'stopped', logs: 'got to step 3' } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(120);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('stops waiting after the grace for a tool that ignores its signal', async () => {
    const started = Date.now();
    const out = await runTool(makeTool('t', () => new Promise(() => {})), {}, { ...base, timeoutMs: 20, stopGraceMs: 300 });
    expect(out).toEqual({ kind: 'timeout', timeoutMs: 20 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('swallows an onUpdate listener that throws and ignores updates after settling', async () => {
    let late: (() => void) | undefined;
    const tool = makeTool('t', async (_a, ctx) => {
      ctx.onUpdate({ text: 'x' });
      late = () => ctx.onUpdate({ text: 'late' });
      return { data: 1 };
    });
    let calls = 0;
    const out = await runTool(tool, {}, { ...base, onUpdate: () => { calls++; throw new Error('ui'); } });
    late!();
    expect(out.kind).toBe('ok');
    expect(calls).toBe(1);
  });

  it('takes a bare value as data and undefined as an empty success', () => {
    expect(toRunResult(undefined)).toEqual({ status: 'SUCCESS' });
    expect(toRunResult('text')).toEqual({ status: 'SUCCESS', data: 'text' });
    expect(toRunResult([1])).toEqual({ status: 'SUCCESS', data: [1] });
    expect(toRunResult({ rows: 3 })).toEqual({ status: 'SUCCESS', data: { rows: 3 } });
    expect(toRunResult({ data: 5 })).toEqual({ data: 5 });
  });
});
