import { describe, expect, it } from 'vitest';
import { hasVarRefs, resolveVarRefs } from '../../../../electron/runtime/tools/variables/resolve-var-refs.ts';
import { VariableSystem } from '../../../../electron/runtime/tools/variables/variable-system.ts';

function vars(entries: Record<string, string>): VariableSystem {
  const system = new VariableSystem();
  for (const [name, value] of Object.entries(entries)) system.add(name, value, 'LLMAdd');
  return system;
}

describe('resolveVarRefs', () => {
  it('replaces whole references and slices', () => {
    const out = resolveVarRefs({ a: 'x=$VAR_REF{{v}};', b: '$VAR_REF{{v:2:3}}' }, vars({ v: 'abcdefgh' }));
    expect(out).toEqual({ ok: true, value: { a: 'x=abcdefgh;', b: 'cde' }, refs: ['v'] });
  });

  it('returns arguments without references as they are, and reports ones nested too deep to walk', () => {
    const args = { q: 'no reference here', list: [1, { path: '~/a' }] };
    const out = resolveVarRefs(args, vars({ v: 'x' }));
    expect(out).toEqual({ ok: true, value: args, refs: [] });
    expect(out.ok && out.value).toBe(args);
    let deep: unknown[] = ['$VAR_REF{{v}}'];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const tooDeep = resolveVarRefs({ deep }, vars({ v: 'x' }));
    expect(tooDeep).toEqual({ ok: false, error: expect.stringMatching(/^\$VAR_REF expansion failed: Maximum call stack size exceeded/) });
  });

  it('walks nested arrays and objects and leaves non-strings alone', () => {
    const args = { list: ['$VAR_REF{{v}}', 1, { deep: ['pre $VAR_REF{{v:0:1}} post'] }], n: 5, flag: true, nil: null };
    const out = resolveVarRefs(args, vars({ v: 'XYZ' }));
    expect(out.ok && out.value).toEqual({ list: ['XYZ', 1, { deep: ['pre X post'] }], n: 5, flag: true, nil: null });
  });

  it('returns the same object when nothing refers to a variable', () => {
    const args = { a: 'plain', b: [1, 2] };
    const out = resolveVarRefs(args, vars({}));
    expect(out.ok && out.value).toBe(args);
    expect(hasVarRefs(args)).toBe(false);
    expect(hasVarRefs({ x: ['$VAR_REF{{a}}'] })).toBe(true);
  });

  it('expands references inside variable values', () => {
    const out = resolveVarRefs({ q: '$VAR_REF{{outer}}' }, vars({ outer: '[$VAR_REF{{inner}}]', inner: 'core' }));
    expect(out).toMatchObject({ ok: true, value: { q: '[core]' } });
  });

  it('reports a cycle and names it', () => {
    const out = resolveVarRefs({ q: '$VAR_REF{{a}}' }, vars({ a: '$VAR_REF{{b}}', b: 'x $VAR_REF{{a}}' }));
    expect(out.ok).toBe(false);
    expect(!out.ok && out.error).toContain('cycle: a → b → a');
    const self = resolveVarRefs({ q: '$VAR_REF{{s}}' }, vars({ s: '$VAR_REF{{s:0:1}}' }));
    expect(!self.ok && self.error).toContain('s → s');
  });

  it('reports an unknown name with close names', () => {
    const out = resolveVarRefs({ q: '$VAR_REF{{Search_c1_reslt}}' }, vars({ Search_c1_result: 'r', other: 'o' }));
    expect(out.ok).toBe(false);
    expect(!out.ok && out.error).toContain('Unknown variable "Search_c1_reslt"');
    expect(!out.ok && out.error).toContain('Close names: Search_c1_result');
    expect(!out.ok && out.error).not.toContain('other');
  });

  it('names the variable an unknown nested reference sits in', () => {
    const out = resolveVarRefs({ q: '$VAR_REF{{a}}' }, vars({ a: '$VAR_REF{{missing}}' }));
    expect(!out.ok && out.error).toContain('(inside variable "a")');
  });

  it('clamps slices that fall outside the value', () => {
    const v = vars({ v: 'abc😀' });
    const get = (ref: string) => {
      const out = resolveVarRefs({ q: ref }, v);
      return out.ok ? out.value.q : out.error;
    };
    expect(get('$VAR_REF{{v:2:100}}')).toBe('c😀');
    expect(get('$VAR_REF{{v:50:2}}')).toBe('');
    expect(get('$VAR_REF{{v:-5:2}}')).toBe('ab');
    expect(get('$VAR_REF{{v:3:1}}')).toBe('😀');
    expect(get('$VAR_REF{{v:1}}')).toBe('bc😀');
  });

  it('stringifies non-string values before slicing', () => {
    const source = { get: (name: string) => (name === 'obj' ? { value: { a: 1 } } : undefined), names: () => ['obj'] };
    const out = resolveVarRefs({ q: '$VAR_REF{{obj}}', s: '$VAR_REF{{obj:0:4}}' }, source);
    expect(out).toMatchObject({ ok: true, value: { q: '{"a":1}', s: '{"a"' } });
  });

  it('accepts names with colons and slashes', () => {
    const out = resolveVarRefs({ q: '$VAR_REF{{Rule/web/a:b}} $VAR_REF{{Rule/web/a:b:0:2}}' }, vars({ 'Rule/web/a:b': 'rule' }));
    expect(out).toMatchObject({ ok: true, value: { q: 'rule ru' } });
  });

  it('leaves text without closing braces alone', () => {
    const args = { q: 'see $VAR_REF{{v and $VAR_REF{ and $VAR_REF' };
    const out = resolveVarRefs(args, vars({ v: 'x' }));
    expect(out).toMatchObject({ ok: true, value: args });
  });

  it('fails clearly on a reference bomb instead of eating memory', () => {
    const bomb: Record<string, string> = { b0: 'x'.repeat(1024) };
    for (let i = 1; i <= 30; i++) bomb[`b${i}`] = `$VAR_REF{{b${i - 1}}}$VAR_REF{{b${i - 1}}}`;
    const out = resolveVarRefs({ q: '$VAR_REF{{b30}}' }, vars(bomb), { maxExpandedChars: 1_000_000 });
    expect(out.ok).toBe(false);
    expect(!out.ok && out.error).toMatch(/larger than the limit of 1000000 characters/);
  });

  it('counts the cap over all arguments together', () => {
    const out = resolveVarRefs({ a: '$VAR_REF{{v}}', b: '$VAR_REF{{v}}' }, vars({ v: 'x'.repeat(60) }), { maxExpandedChars: 100 });
    expect(out.ok).toBe(false);
  });
});
