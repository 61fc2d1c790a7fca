import { describe, expect, it } from 'vitest';
import { executeOrder, parameterNames } from '../../../electron/runtime/sources/module/execute-argument-order.ts';

describe('execute argument order', () => {
  it('reads parameter names from methods, functions and arrows', () => {
    const tool = {
      async execute(toolCallId: string, params: { a?: number } = {}, _signal?: AbortSignal, ...rest: unknown[]) {
        return [toolCallId, params, rest];
      },
    };
    expect(parameterNames(tool.execute as never)).toEqual(['toolCallId', 'params', 'signal', 'rest']);
    expect(parameterNames(((id: string, { a, b }: { a: number; b: number }, onUpdate: unknown) => [id, a, b, onUpdate]) as never)).toEqual(['id', '{', 'onUpdate']);
    expect(parameterNames((async (x: unknown) => x) as never)).toEqual(['x']);
  });

  it('trusts the names first, then the host, then the shape', () => {
    const named = (_id: unknown, _p: unknown, _onUpdate: unknown) => 0;
    const signal = (_id: unknown, _p: unknown, signal: unknown) => signal;
    const anonymous = (a: unknown, b: unknown, c: unknown) => [a, b, c];
    expect(executeOrder(named as never, 'pi-mono', 'extension')).toBe('update-third');
    expect(executeOrder(signal as never, 'oh-my-pi', 'factory')).toBe('signal-third');
    expect(executeOrder(anonymous as never, 'pi-mono', 'factory')).toBe('signal-third');
    expect(executeOrder(anonymous as never, 'oh-my-pi', 'extension')).toBe('update-third');
    expect(executeOrder(anonymous as never, 'unknown', 'factory')).toBe('update-third');
    expect(executeOrder(anonymous as never, 'unknown', 'extension')).toBe('signal-third');
    expect(executeOrder(((id: unknown, params: unknown) => [id, params]) as never, 'unknown', 'factory')).toBe('update-third');
  });
});
