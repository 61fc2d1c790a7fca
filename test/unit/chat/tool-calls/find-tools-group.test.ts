// FindTools as an unlisted built-in group: every call takes the executor's pipeline, while the
// catalog still never offers it (the tool budget does) and a user's tool of that name wins.
import { describe, expect, it } from 'vitest';
import { createFindToolsGroup, FIND_TOOLS_GROUP } from '../../../../electron/runtime/chat/tool-calls/find-tools-group.ts';
import { ToolBudget } from '../../../../electron/runtime/chat/tool-calls/tool-budget.ts';
import { replaceExecutorGroups } from '../../../../electron/runtime/tools/executor-groups.ts';
import type { CallGuard, GuardedCall, GuardedOutcome } from '../../../../electron/runtime/tools/rules/call-guard.ts';
import { decideCall } from '../../../../electron/runtime/tools/rules/decide-call.ts';
import { ToolExecutor, type ToolExecutorOptions } from '../../../../electron/runtime/tools/tool-executor.ts';
import { ToolSession } from '../../../../electron/runtime/tools/tool-session.ts';
import { defaultSettings } from '../../../../shared/settings.ts';
import { makeGroup, makeTool } from '../../tools/make-tool.ts';

const manyTools = (n: number) => Array.from({ length: n }, (_, i) => makeTool(`tool_${i}`, undefined, { definition: { type: 'function', function: { name: `tool_${i}`, description: `Handles topic${i} ${'padding '.repeat(200)}`, parameters: { type: 'object', properties: {} } } } }));

function chatExecutor(options: Partial<ToolExecutorOptions> = {}, tools = manyTools(30)) {
  const executor = new ToolExecutor({ sessionId: 's', ...options });
  executor.registerToolGroup(makeGroup('g', tools));
  executor.toggleGroupEnabled('g', true);
  const budget = new ToolBudget();
  executor.registerToolGroup(createFindToolsGroup(budget, () => executor.getEnabledToolDefinitions()));
  return { executor, budget };
}

describe('FindTools as a built-in group of the executor', () => {
  it('is neither listed nor offered by the catalog, and runs without any switch on', async () => {
    const { executor } = chatExecutor();
    expect(executor.listGroups().map((g) => g.name)).toEqual(['vars', 'g']);
    expect(executor.getEnabledToolDefinitions().map((d) => d.function.name)).not.toContain('FindTools');
    executor.toggleGroupEnabled('g', false);
    const result = await executor.execute('FindTools', { query: 'topic7' }, { callId: 'f1' });
    expect(result).toMatchObject({ status: 'SUCCESS', toolName: 'FindTools', callId: 'f1', finalText: expect.stringMatching(/^No tool matches "topic7"/) });
  });

  it('finds over the enabled definitions; its result is whole (not cut) and not kept as variables', async () => {
    const { executor, budget } = chatExecutor({ truncateChars: 200 });
    const result = await executor.execute('FindTools', { query: 'topic7 handles', limit: 3 });
    expect(result.status).toBe('SUCCESS');
    expect(result.finalText).toMatch(/^Found 3 tools for "topic7 handles"/);
    expect(result.finalText!.length).toBeGreaterThan(3000);
    expect(result.isTruncated).toBe(false);
    expect(result.cacheVarResult).toBeUndefined();
    expect([...executor.variables.names()].filter((n) => n.startsWith('FindTools'))).toEqual([]);
    // What it found is offered from the next request on.
    const all = executor.getEnabledToolDefinitions();
    expect(budget.offer(all, new Set(), 100).tools.map((d) => d.function.name)).toContain('tool_7');
  });

  it('validates its arguments like any call, with the message for the model', async () => {
    const { executor } = chatExecutor();
    const missing = await executor.execute('FindTools', {});
    expect(missing).toMatchObject({ status: 'ERROR', finalText: expect.stringMatching(/query/) });
    const blank = await executor.execute('FindTools', { query: '  ' });
    expect(blank).toMatchObject({ status: 'ERROR', error: expect.stringMatching(/needs a "query"/) });
  });

  it('never asks, whatever the level, and the guard decides and hears it (audit)', async () => {
    const heard: Array<[GuardedCall, GuardedOutcome]> = [];
    const guard: CallGuard = {
      decide: (call) => decideCall({ verdict: { action: 'none' }, level: call.level, policy: call.policy, readOnly: false, builtin: call.builtin }),
      settled: (call, outcome) => heard.push([call, outcome]),
    };
    let asked = 0;
    const { executor } = chatExecutor({ guard, permissionLevel: 'ask', approve: async () => (asked++, { decision: 'reject' }) });
    expect((await executor.execute('FindTools', { query: 'topic3' })).status).toBe('SUCCESS');
    expect(asked).toBe(0);
    expect(heard).toHaveLength(1);
    expect(heard[0]![0]).toMatchObject({ toolName: 'FindTools', groupName: FIND_TOOLS_GROUP, builtin: true });
    expect(heard[0]![1]).toMatchObject({ decision: 'allowed', status: 'SUCCESS' });
  });

  it('a deny rule stops it like any other call', async () => {
    const guard: CallGuard = { decide: () => ({ kind: 'deny', reason: 'No searching.', by: 'rule', detail: 'rule 1' }) };
    const { executor } = chatExecutor({ guard });
    expect(await executor.execute('FindTools', { query: 'topic3' })).toMatchObject({ status: 'EXECUTION_REJECTED', rejectReason: 'No searching.' });
  });

  it("a user's tool named FindTools wins, whenever it is registered, and is never refused for the name", async () => {
    const mine = makeTool('FindTools', async () => ({ data: 'mine' }));
    const { executor } = chatExecutor({}, [mine]);
    expect((await executor.execute('FindTools', { query: 'x' })).data).toBe('mine');
    expect(executor.diagnostics()).toEqual([]);
    // Re-syncing the sources (a group named like the built-in one, too) keeps both in place.
    replaceExecutorGroups(executor, [makeGroup(FIND_TOOLS_GROUP, [makeTool('other')])]);
    expect((await executor.execute('FindTools', { query: 'x' })).finalText).toMatch(/^No tool matches/);
  });

  it("a chat's own tool selection does not refuse it", async () => {
    const session = new ToolSession({ settings: () => defaultSettings(), tools: { groups: () => [makeGroup('g', manyTools(3))] } }, { sessionId: 's', selection: { tools: ['tool_1'], pinned: [] } });
    session.addBuiltinGroup(createFindToolsGroup(new ToolBudget(), () => session.definitions()));
    expect(await session.execute('FindTools', { query: 'topic1' })).toMatchObject({ status: 'SUCCESS', finalText: expect.stringMatching(/^Found 1 tool/) });
    expect((await session.execute('tool_2', {})).status).toBe('ERROR');
    session.close();
  });
});
