// Texts written for the model stay out of what the chat shows the user, and a user's reason
// reaches the model word for word as its own sentence.
import { describe, expect, it } from 'vitest';
import { ToolExecutor } from '../../../electron/runtime/tools/tool-executor.ts';
import type { Tool } from '../../../electron/runtime/tools/types.ts';
import { applyToolSet } from '../../../electron/runtime/tools/rules/apply-tool-set.ts';

const tool = (name: string, executionPolicy: 'auto' | 'ask-always' = 'auto'): Tool => ({
  definition: { type: 'function', function: { name, description: name, parameters: { type: 'object', properties: {} } } },
  permission: { executionPolicy, resultApprovalPolicy: 'never' },
  execute: async () => ({ status: 'SUCCESS', data: 'ran' }),
});

describe('wording for the user and for the model', () => {
  it('a call into a switched-off group: the model is told to ask the user, the user is told where the switch is', async () => {
    const executor = new ToolExecutor({ sessionId: 'w' });
    executor.registerToolGroup({ name: 'files', tools: [tool('list_files')] });
    executor.toggleGroupEnabled('files', false);
    const result = await executor.execute('list_files', {});
    expect(result.status).toBe('ERROR');
    expect(result.finalText).toContain('Ask the user to enable it');
    expect(result.error).toBe('The group "files" is switched off (Settings → Tool groups), so list_files did not run.');
    expect(result.error).not.toMatch(/ask the user/i);
  });

  it('a call of a tool a tool set leaves out names the set, not a switch that is on', async () => {
    const executor = new ToolExecutor({ sessionId: 'w' });
    executor.registerToolGroup({ name: 'files', tools: [tool('list_files'), tool('read_file')] });
    executor.toggleGroupEnabled('files', true);
    applyToolSet(executor, { name: 'reading', tools: ['read_file'] });
    const result = await executor.execute('list_files', {});
    expect(result.error).toBe('list_files is outside the tool set "reading", so it did not run. Add it to that set or pick another one (`tooldesk toolset list`).');
    expect(result.finalText).toContain('outside the tool set "reading"');
    expect((await executor.execute('read_file', {})).status).toBe('SUCCESS');
  });

  it("a rejection's reason is quoted word for word as its own sentence, and its absence leaves no dangling colon", async () => {
    const reasons = ['not on a Sunday', ''];
    const executor = new ToolExecutor({ sessionId: 'w', approve: async () => ({ decision: 'reject', reason: reasons.shift() }) });
    executor.registerToolGroup({ name: 'danger', tools: [tool('rm', 'ask-always')] });
    executor.toggleGroupEnabled('danger', true);
    const withReason = await executor.execute('rm', {});
    expect(withReason.finalText).toBe('The user did not allow running rm. Their reason: "not on a Sunday". Do not retry the same call unless the user asks for it.');
    const without = await executor.execute('rm', {});
    expect(without.status).toBe('EXECUTION_REJECTED');
    expect(without.finalText).toMatch(/^The user did not allow running rm\.( Their reason: ".+"\.)? Do not retry/);
    expect(without.finalText).not.toContain(': Do not');
  });
});
