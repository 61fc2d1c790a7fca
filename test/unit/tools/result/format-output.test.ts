import { describe, expect, it } from 'vitest';
import { formatOutput, truncateOutput, truncationHint } from '../../../../electron/runtime/tools/result/format-output.ts';
import { makeTool } from '../make-tool.ts';

describe('formatOutput', () => {
  const tool = makeTool('t');

  it('uses JSON for non-strings, strings as they are, and empty for nothing', () => {
    expect(formatOutput(tool, { data: { a: [1] } }, {}).text).toBe('{"a":[1]}');
    expect(formatOutput(tool, { data: 'plain' }, {}).text).toBe('plain');
    expect(formatOutput(tool, {}, {}).text).toBe('');
  });

  it('prefers the tool-provided formattedText, then formatForLLM', () => {
    const custom = makeTool('t', undefined, { formatForLLM: (data, args) => `rows=${(data as unknown[]).length} q=${String(args.q)}` });
    expect(formatOutput(custom, { data: [1, 2], formattedText: 'own' }, {}).text).toBe('own');
    expect(formatOutput(custom, { data: [1, 2] }, { q: 'x' }).text).toBe('rows=2 q=x');
  });

  it('falls back to JSON when formatForLLM throws, with a warning, and survives circular data', () => {
    const broken = makeTool('t', undefined, { formatForLLM: () => { throw new Error('bad'); } });
    expect(formatOutput(broken, { data: [1] }, {})).toEqual({ text: '[1]', warning: expect.stringContaining('bad') });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(formatOutput(tool, { data: circular }, {}).text).toBe('[object Object]');
  });
});

describe('truncateOutput', () => {
  const long = 'a'.repeat(500);

  it('truncates head+tail at the limit and skips when asked', () => {
    expect(truncateOutput(makeTool('t'), long, {}, 100).info).toMatchObject({ truncated: true, keptLength: 100, omitted: 400 });
    expect(truncateOutput(makeTool('t'), long, {}, -1).info.truncated).toBe(false);
    expect(truncateOutput(makeTool('t', undefined, { SKIP_EXTERNAL_TRUNCATE: true }), long, {}, 10).text).toBe(long);
  });

  it('uses a custom truncateForLLM and passes it the limit', () => {
    let seenLimit: unknown;
    const tool = makeTool('t', undefined, { truncateForLLM: (text, args) => ((seenLimit = args.limit), text.slice(0, 10)) });
    const out = truncateOutput(tool, long, {}, 50);
    expect(out.text).toBe('a'.repeat(10));
    expect(out.info).toEqual({ truncated: true, originalLength: 500, keptLength: 10, omitted: 490 });
    expect(seenLimit).toBe(50);
  });
});

describe('truncationHint', () => {
  it('names the variable, the $VAR_REF and a ready ReadVar call for the omitted part', () => {
    const cut = truncateOutput(makeTool('t'), 'b'.repeat(1000), {}, 100);
    const hint = truncationHint(cut, 'Search_c1_result');
    expect(hint).toContain('showing 100 of 1000 characters (900 omitted)');
    expect(hint).toContain('$VAR_REF{{Search_c1_result}}');
    expect(hint).toContain(`ReadVar {"name":"Search_c1_result","start":${cut.headLength},"length":100}`);
  });

  it('says when the output was not stored', () => {
    const cut = truncateOutput(makeTool('t'), 'b'.repeat(1000), {}, 100);
    expect(truncationHint(cut, undefined)).toContain('not stored');
  });
});
