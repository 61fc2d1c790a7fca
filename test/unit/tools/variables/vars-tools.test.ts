import { describe, expect, it } from 'vitest';
import { createVarsToolGroup, MAX_READ_CHARS } from '../../../../electron/runtime/tools/variables/vars-tools.ts';
import { VariableSystem } from '../../../../electron/runtime/tools/variables/variable-system.ts';
import type { Tool } from '../../../../electron/runtime/tools/types.ts';

function setup() {
  const variables = new VariableSystem();
  const group = createVarsToolGroup(variables);
  const tool = (name: string): Tool => group.tools.find((t) => t.definition.function.name === name)!;
  const ctx = { callId: 'c', sessionId: 's', signal: new AbortController().signal, onUpdate: () => {} };
  const call = (name: string, args: Record<string, unknown>) => tool(name).execute(args, ctx);
  return { variables, group, tool, call };
}

describe('vars tools', () => {
  it('form the builtin vars group, run without asking and never cache their own results', () => {
    const { group } = setup();
    expect(group).toMatchObject({ name: 'vars', builtin: true });
    expect(group.tools.map((t) => t.definition.function.name)).toEqual(['ReadVar', 'ListVars', 'WriteVar', 'RemoveVars']);
    for (const t of group.tools) {
      expect(t.permission?.executionPolicy).toBe('auto');
      expect(t.SKIP_CACHE_RESULT).toBe(true);
    }
  });

  it('ReadVar reads whole values and slices by character, pointing at the next slice', async () => {
    const { variables, call } = setup();
    variables.add('v', '0123456789😀', 'ToolCallResult');
    expect((await call('ReadVar', { name: 'v' })).formattedText).toBe('0123456789😀');
    const slice = await call('ReadVar', { name: 'v', start: 2, length: 3 });
    expect(slice.data).toBe('234');
    expect(slice.formattedText).toContain('characters 2–5 of 11');
    expect(slice.formattedText).toContain('ReadVar {"name":"v","start":5,"length":3}');
    expect((await call('ReadVar', { name: 'v', start: 10, length: 5 })).data).toBe('😀');
    expect((await call('ReadVar', { name: 'v', start: 99 })).data).toBe('');
  });

  it('ReadVar bounds one read and says where to continue', async () => {
    const { variables, call } = setup();
    variables.add('big', 'q'.repeat(MAX_READ_CHARS + 10), 'ToolCallResult');
    const out = await call('ReadVar', { name: 'big', length: 1_000_000 });
    expect(out.data).toHaveLength(MAX_READ_CHARS);
    expect(out.formattedText).toContain(`"start":${MAX_READ_CHARS},"length":10`);
  });

  it('ReadVar names close variables when one is missing', async () => {
    const { variables, call } = setup();
    variables.add('Search_c1_result', 'x', 'ToolCallResult');
    const out = await call('ReadVar', { name: 'Search_c1_reslt' });
    expect(out.status).toBe('ERROR');
    expect(out.error).toContain('Close names: Search_c1_result');
  });

  it('ListVars filters, pages and tells how to get the next page', async () => {
    const { variables, call } = setup();
    for (let i = 0; i < 5; i++) variables.add(`n${i}`, 'x', 'LLMAdd', { tags: i % 2 ? ['odd'] : [] });
    variables.add('Rule/g/r', 'rule', 'RULE', { desc: 'how to cite' });
    const page = await call('ListVars', { limit: 2 });
    expect(page.formattedText).toContain('- Rule/g/r (RULE, 4 chars)');
    expect(page.formattedText).toContain('Showing 1–2 of 6. Next page: ListVars {"offset":2,"limit":2}');
    expect((await call('ListVars', { tag: 'odd' })).formattedText).toMatch(/n3[\s\S]*n1/);
    expect((await call('ListVars', { search: 'cite' })).formattedText).toContain('Rule/g/r');
    expect((await call('ListVars', { type: 'MessageCache' })).formattedText).toBe('No variables match.');
  });

  it('WriteVar stores LLMAdd values but cannot overwrite a rule', async () => {
    const { variables, call } = setup();
    const out = await call('WriteVar', { name: 'plan', value: 'step 1', tags: ['p'], desc: 'the plan' });
    expect(out.formattedText).toContain('$VAR_REF{{plan}}');
    expect(variables.peek('plan')).toMatchObject({ type: 'LLMAdd', value: 'step 1', tags: ['p'], desc: 'the plan' });
    variables.add('Rule/g/r', 'keep', 'RULE');
    expect((await call('WriteVar', { name: 'Rule/g/r', value: 'x' })).status).toBe('ERROR');
    expect(variables.peek('Rule/g/r')?.value).toBe('keep');
  });

  it('RemoveVars removes variables but never rules', async () => {
    const { variables, call } = setup();
    variables.add('a', '1', 'LLMAdd');
    variables.add('Rule/g/r', 'keep', 'RULE');
    const out = await call('RemoveVars', { names: ['a', 'Rule/g/r', 'ghost'] });
    expect(out.status).toBe('SUCCESS');
    expect(out.formattedText).toContain('Removed: a.');
    expect(out.formattedText).toContain('Rule/g/r: rules cannot be removed');
    expect(out.formattedText).toContain('ghost: no such variable');
    expect(variables.has('Rule/g/r')).toBe(true);
    expect((await call('RemoveVars', { names: ['Rule/g/r'] })).status).toBe('ERROR');
  });
});
