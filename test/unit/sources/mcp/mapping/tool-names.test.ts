import { describe, expect, it } from 'vitest';
import { callableName } from '../../../../../electron/runtime/sources/mcp/mapping/tool-names.ts';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

describe('callable names of MCP tools', () => {
  it('is SERVER__tool when that is valid and free', () => {
    expect(callableName('github', 'create_issue', new Set())).toBe('github__create_issue');
  });

  it('hashes long, odd or clashing names, stably', () => {
    const long = callableName('a-very-long-server-name-indeed', 'and_an_even_longer_tool_name_that_goes_on_and_on', new Set());
    expect(long).toMatch(VALID);
    expect(long).toBe(callableName('a-very-long-server-name-indeed', 'and_an_even_longer_tool_name_that_goes_on_and_on', new Set()));
    const dotted = callableName('fs', 'read.file', new Set());
    expect(dotted).toMatch(/^fs__read_file_[0-9a-f]{6}$/);
    const taken = new Set(['x__y']);
    const clash = callableName('x', 'y', taken);
    expect(clash).not.toBe('x__y');
    expect(clash).toMatch(VALID);
    // Two different originals that clean to the same text get different names.
    expect(callableName('s', 'a.b', new Set())).not.toBe(callableName('s', 'a b', new Set()));
  });

  it('stays valid for names in other scripts', () => {
    expect(callableName('服务器', '读取文件', new Set())).toMatch(VALID);
  });
});
