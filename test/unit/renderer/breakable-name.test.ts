import { describe, expect, it } from 'vitest';
import { nameParts } from '../../../renderer/src/ui/breakable-name.tsx';

describe('nameParts', () => {
  it('cuts after separators and before a capital that follows a small letter, never inside a word', () => {
    expect(nameParts('script_echo_call_0_0_args')).toEqual(['script_', 'echo_', 'call_', '0_', '0_', 'args']);
    expect(nameParts('Rule/vars/readFirst')).toEqual(['Rule/', 'vars/', 'read', 'First']);
    expect(nameParts('ev__get-sum')).toEqual(['ev_', '_', 'get-', 'sum']);
    expect(nameParts('README')).toEqual(['README']);
  });
});
