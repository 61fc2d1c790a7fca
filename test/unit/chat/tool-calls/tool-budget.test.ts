import { describe, expect, it } from 'vitest';
import { definitionChars, FIND_TOOLS_DEFINITION, ToolBudget } from '../../../../electron/runtime/chat/tool-calls/tool-budget.ts';
import type { ToolDefinition } from '../../../../shared/tools.ts';

const def = (name: string, description = `Does ${name}`): ToolDefinition => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties: { input: { type: 'string' } } } },
});

const many = (n: number) => [def('ReadVar', 'Read a variable'), def('ListVars', 'List variables'), ...Array.from({ length: n }, (_, i) => def(`tool_${i}`, `Tool number ${i} that handles topic${i}`))];

const names = (tools: ToolDefinition[]) => tools.map((t) => t.function.name);

describe('ToolBudget.offer (budget selection)', () => {
  it('under the budget every definition goes, without FindTools', () => {
    const all = many(3);
    const offered = new ToolBudget().offer(all, new Set(), definitionChars(all));
    expect(offered.budgetMode).toBe(false);
    expect(offered.tools).toEqual(all);
    expect(offered.rule).toBeUndefined();
  });

  it('over the budget: ReadVar, ListVars, pinned tools and FindTools only, with a rule saying how', () => {
    const all = many(50);
    const offered = new ToolBudget().offer(all, new Set(['tool_7']), definitionChars(all) - 1);
    expect(offered.budgetMode).toBe(true);
    expect(names(offered.tools)).toEqual(['ReadVar', 'ListVars', 'tool_7', 'FindTools']);
    expect(offered.totalChars).toBe(definitionChars(all));
    expect(offered.rule).toMatch(/52 tools; 49 of them are not listed/);
    expect(offered.rule).toMatch(/call FindTools/);
    expect(definitionChars(offered.tools)).toBeLessThan(definitionChars(all) / 5);
  });

  it('no tools at all: nothing is offered, whatever the budget', () => {
    expect(new ToolBudget().offer([], new Set(), 0)).toMatchObject({ tools: [], budgetMode: false });
  });

  it('what FindTools returns is offered from the next request on, in the catalog order', () => {
    const budget = new ToolBudget();
    const all = many(50);
    const found = budget.find({ query: 'topic42' }, all);
    expect(found.status).toBe('SUCCESS');
    expect(found.finalText).toMatch(/Found 1 tool for "topic42"; it is callable from your next step/);
    expect(found.data).toEqual([all.find((t) => t.function.name === 'tool_42')!.function]);
    expect(names(budget.offer(all, new Set(), 100).tools)).toEqual(['ReadVar', 'ListVars', 'tool_42', 'FindTools']);
  });

  it('FindTools: the limit is bounded; a missing query is an error for the model; no match says so', () => {
    const budget = new ToolBudget();
    const all = many(50);
    expect((budget.find({ query: 'tool', limit: 1000 }, all).data as unknown[]).length).toBe(20);
    expect((budget.find({ query: 'tool', limit: 0 }, all).data as unknown[]).length).toBe(1);
    expect((budget.find({ query: 'tool', limit: 2.5 }, all).data as unknown[]).length).toBe(5);
    expect(budget.find({}, all)).toMatchObject({ status: 'ERROR', error: expect.stringMatching(/needs a "query"/) });
    expect(budget.find(null, all)).toMatchObject({ status: 'ERROR' });
    expect(budget.find({ query: 'quantum chromodynamics' }, all)).toMatchObject({ status: 'SUCCESS', finalText: expect.stringMatching(/No tool matches/) });
  });

  it('never returns FindTools itself and rebuilds its index when the tools change', () => {
    const budget = new ToolBudget();
    const first = [def('alpha'), FIND_TOOLS_DEFINITION];
    expect(names(budget.find({ query: 'FindTools search' }, first).data as never[]).length).toBe(0);
    const second = [def('beta', 'search things')];
    expect((budget.find({ query: 'search' }, second).data as { name: string }[]).map((f) => f.name)).toEqual(['beta']);
  });
});
