import { describe, expect, it } from 'vitest';
import { closestName, didYouMean, editDistance } from '../../../electron/cli/did-you-mean.ts';

describe('did you mean', () => {
  it('counts edits, a swap of neighbours as one', () => {
    expect(editDistance('tools', 'tools')).toBe(0);
    expect(editDistance('tolos', 'tools')).toBe(1);
    expect(editDistance('lsit', 'list')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('names the close command, a prefix too, and nothing for a far one', () => {
    const known = ['chat', 'tools', 'mcp', 'serve', 'sessions', 'config', 'secrets'];
    expect(closestName('tolos', known)).toBe('tools');
    expect(closestName('sesions', known)).toBe('sessions');
    expect(closestName('TOOLS', known)).toBe('tools');
    expect(closestName('conf', known)).toBe('config');
    expect(closestName('xyzzy', known)).toBeUndefined();
    expect(closestName('a', known)).toBeUndefined();
    expect(didYouMean('serv', known)).toBe(' Did you mean "serve"?');
    expect(didYouMean('zzz', known)).toBe('');
  });
});
