import { describe, expect, it } from 'vitest';
import { closestName, didYouMean } from '../../../electron/cli/did-you-mean.ts';

describe('did you mean', () => {
  it('names the close command, a swap, a prefix, any case, and nothing for a far one', () => {
    const known = ['chat', 'tools', 'mcp', 'serve', 'sessions', 'config', 'secrets'];
    expect(closestName('tolos', known)).toBe('tools');
    expect(closestName('sesions', known)).toBe('sessions');
    expect(closestName('TOOLS', known)).toBe('tools');
    expect(closestName('conf', known)).toBe('config');
    expect(closestName('xyzzy', known)).toBeUndefined();
    expect(didYouMean('serv', known)).toBe(' Did you mean "serve"?');
    expect(didYouMean('zzzzzz', known)).toBe('');
  });
});
