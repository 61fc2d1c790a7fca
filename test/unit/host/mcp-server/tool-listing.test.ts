import { describe, expect, it } from 'vitest';
import { ToolExecutor } from '../../../../electron/runtime/tools/tool-executor.ts';
import type { Tool } from '../../../../electron/runtime/tools/types.ts';
import { listMcpTools as listOffered } from '../../../../electron/runtime/host/mcp-server/tool-listing.ts';

/** The listing reads a ToolSession's definitions() and listGroups(); an executor answers the same. */
const listMcpTools = (executor: ToolExecutor) => listOffered({ definitions: () => executor.getEnabledToolDefinitions(), listGroups: () => executor.listGroups() });

const tool = (name: string, over: Partial<Tool> = {}): Tool => ({
  definition: { type: 'function', function: { name, description: `${name} tool`, parameters: { type: 'object', properties: { q: { type: 'string' } } } } },
  execute: async () => ({ data: 'x' }),
  ...over,
});

describe('listMcpTools', () => {
  it('offers enabled tools of enabled groups, with ReadVar/ListVars, and policy annotations', () => {
    const executor = new ToolExecutor({ sessionId: 't' });
    executor.registerToolGroup({ name: 'on', tools: [tool('plain'), tool('risky', { permission: { executionPolicy: 'ask-always' } }), tool('peek', { meta: { readOnly: true } }), tool('off')] });
    executor.registerToolGroup({ name: 'disabled', tools: [tool('hidden')] });
    executor.toggleGroupEnabled('on', true);
    executor.setToolEnabled('off', false);
    const tools = listMcpTools(executor);
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['plain', 'risky', 'peek', 'ReadVar', 'ListVars']));
    expect(names).not.toContain('off');
    expect(names).not.toContain('hidden');
    expect(names).not.toContain('WriteVar');
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('plain')!.annotations).toEqual({ title: 'plain', readOnlyHint: false, destructiveHint: false });
    expect(byName.get('risky')!.annotations.destructiveHint).toBe(true);
    expect(byName.get('peek')!.annotations).toEqual({ title: 'peek', readOnlyHint: true });
    expect(byName.get('ReadVar')!.annotations.readOnlyHint).toBe(true);
    expect(byName.get('plain')!.inputSchema).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
    expect(byName.get('plain')!._meta).toMatchObject({ 'tooldesk/group': 'on', 'tooldesk/executionPolicy': 'ask-once' });
  });

  it('offers nothing while no group is enabled', () => {
    const executor = new ToolExecutor({ sessionId: 't' });
    executor.registerToolGroup({ name: 'g', tools: [tool('a')] });
    expect(listMcpTools(executor)).toEqual([]);
  });
});
