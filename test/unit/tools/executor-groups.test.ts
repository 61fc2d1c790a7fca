import { describe, expect, it } from 'vitest';
import { applyEnableState } from '../../../electron/runtime/tools/executor-groups.ts';
import { ToolExecutor } from '../../../electron/runtime/tools/tool-executor.ts';
import type { Tool } from '../../../electron/runtime/tools/types.ts';

const tool = (name: string): Tool => ({
  definition: { type: 'function', function: { name, description: name, parameters: { type: 'object', properties: {} } } },
  permission: { executionPolicy: 'auto', resultApprovalPolicy: 'never' },
  execute: async () => ({ status: 'SUCCESS', data: name }),
});

describe('applyEnableState', () => {
  it('reads only the settings own keys: groups named like Object.prototype members stay off unless switched on', () => {
    const executor = new ToolExecutor({ sessionId: 't' });
    for (const name of ['toString', 'valueOf', 'constructor', 'hasOwnProperty', 'plain']) executor.registerToolGroup({ name, tools: [tool(`${name}_tool`)] });
    applyEnableState(executor, { groupDefaults: { plain: true }, toolDefaults: {} });
    const enabled = Object.fromEntries(executor.listGroups().filter((g) => !g.builtin).map((g) => [g.name, g.enabled]));
    expect(enabled).toEqual({ toString: false, valueOf: false, constructor: false, hasOwnProperty: false, plain: true });
    // Tools: on unless switched off by their own key.
    applyEnableState(executor, { groupDefaults: { toString: true }, toolDefaults: { toString_tool: false } });
    expect(executor.listGroups().find((g) => g.name === 'toString')!.tools.find((t) => t.name === 'toString_tool')!.enabled).toBe(false);
  });
});
