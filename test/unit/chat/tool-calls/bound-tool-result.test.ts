// What a session keeps of a tool result: small results untouched, big ones bounded with a note.
import { describe, expect, it } from 'vitest';
import type { ToolExecuteResult } from '../../../../shared/tools.ts';
import { boundToolResult, STORED_RESULT_MAX_CHARS } from '../../../../electron/runtime/chat/tool-calls/bound-tool-result.ts';

describe('boundToolResult', () => {
  it('leaves a small result as it is', () => {
    const result: ToolExecuteResult = { status: 'SUCCESS', data: { a: 1 }, formattedText: 'a: 1', finalText: 'a: 1', logs: 'hi' };
    expect(boundToolResult(result)).toEqual({ result });
  });

  it('keeps a 100 MB result to a few hundred KB, saying where the whole text is', () => {
    const huge = 'x'.repeat(100 * 1024 * 1024);
    const result: ToolExecuteResult = {
      status: 'SUCCESS',
      data: huge,
      formattedText: huge,
      finalText: `${huge.slice(0, 8000)}\n\n[truncated]`,
      logs: huge,
      cacheVarResult: 'big_c1_result',
    };
    const { result: bounded, cut } = boundToolResult(result);
    expect(JSON.stringify(bounded).length).toBeLessThan(4 * STORED_RESULT_MAX_CHARS);
    expect(bounded.data).toBeUndefined();
    expect(bounded.formattedText).toMatch(/more characters not kept in the session; the whole text is in variable big_c1_result\]$/);
    expect(bounded.finalText).toBe(result.finalText);
    expect(cut).toEqual({ data: huge.length + 2, formattedText: huge.length, logs: huge.length });
  });

  it('caps finalText and error at their own (larger) bound, never splitting a surrogate pair', () => {
    const text = `a${'😀'.repeat(20)}`;
    const { result, cut } = boundToolResult({ status: 'ERROR', error: text, finalText: text }, { maxChars: 4, maxFinalChars: 4 });
    expect(result.finalText!.startsWith('a😀\n… [')).toBe(true);
    expect(result.error!.startsWith('a😀\n… [')).toBe(true);
    expect(cut).toEqual({ finalText: text.length, error: text.length });
  });

  it('leaves out data that JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const { result, cut } = boundToolResult({ status: 'SUCCESS', data: cyclic, finalText: 'ok' });
    expect('data' in result).toBe(false);
    expect(cut?.data).toBe(-1);
  });
});
