// Issue 36 §6: which argument "Calls like this" ticks, and how the rule reads in words.
import { describe, expect, it } from 'vitest';
import { mainArgument, rowsFromArgs } from '../../../renderer/src/approvals/calls-like-this.tsx';
import { ruleMatchText } from '../../../renderer/src/approvals/rule-match-text.ts';

describe('mainArgument', () => {
  it('is the path, URL or command by its name, in any spelling', () => {
    expect(mainArgument({ lines: 2, path: '/n/a.md' })).toBe('path');
    expect(mainArgument({ query: 'x', url: 'https://a.b/c' })).toBe('url');
    expect(mainArgument({ note: 'x', filePath: 'a.txt' })).toBe('filePath');
    expect(mainArgument({ timeout: 3, command: 'ls -la' })).toBe('command');
    expect(mainArgument({ text: 'x', output_dir: 'out' })).toBe('output_dir');
  });
  it('else the first text that looks like a path or URL, else the first text', () => {
    expect(mainArgument({ q: 'weather', where: '~/notes/a.md' })).toBe('where');
    expect(mainArgument({ n: 1, text: 'hello', other: 'x' })).toBe('text');
    expect(mainArgument({ n: 1, on: true })).toBeUndefined();
  });
  it('rowsFromArgs ticks that one only', () => {
    expect(rowsFromArgs({ lines: 2, path: '/n/a.md' })).toEqual([
      { path: 'lines', glob: '2', use: false },
      { path: 'path', glob: '/n/**', use: true },
    ]);
  });
});

describe('ruleMatchText', () => {
  it('says what each glob matches and which arguments are free', () => {
    expect(ruleMatchText('t', [{ path: 'path', glob: '/n/**' }], ['lines'])).toBe('Allows t whenever path is inside /n (any depth); lines can be anything.');
    expect(ruleMatchText('t', [{ path: 'url', glob: 'https://a.b/*' }], [])).toBe('Allows t whenever url is an address on https://a.b.');
    expect(ruleMatchText('t', [{ path: 'q', glob: 'hello *' }, { path: 'n', glob: '2' }], ['a', 'b'])).toBe('Allows t whenever q starts with “hello ” and n is exactly “2”; a and b can be anything.');
    expect(ruleMatchText('t', [{ path: 'q', glob: '*.md' }], [])).toBe('Allows t whenever q matches the pattern “*.md”.');
    expect(ruleMatchText('t', [], ['x'])).toBe('Allows every call of t, whatever its arguments.');
  });
});
