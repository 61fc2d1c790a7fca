// The reference MCP server (@modelcontextprotocol/server-everything) over stdio, through the
// manager, the tool group and a real ToolExecutor: what a chat session does with MCP tools.
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../shared/tools.ts';
import type { McpManager } from '../../../electron/runtime/sources/mcp/mcp-manager.ts';
import { ToolExecutor } from '../../../electron/runtime/tools/tool-executor.ts';
import { isAlive } from '../../support/live-processes.ts';
import { EVERYTHING, testManager } from '../../support/mcp-servers.ts';

let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.close();
  manager = undefined;
});

const everything = (extra: Record<string, unknown> = {}) => ({ ev: { command: process.execPath, args: [EVERYTHING, 'stdio'], sandbox: 'off', ...extra } });

async function executorWith(m: McpManager, approvals: ApprovalRequest[] = []) {
  const executor = new ToolExecutor({
    sessionId: 't',
    approve: async (request) => {
      approvals.push(request);
      return { decision: 'once' };
    },
  });
  for (const group of m.groups()) executor.registerToolGroup(group);
  for (const group of m.groups()) executor.toggleGroupEnabled(group.name, true);
  return executor;
}

describe('server-everything over stdio', () => {
  it('starts lazily when its group is switched on, lists its tools as NAME__tool and calls them with approvals', async () => {
    manager = testManager();
    await manager.configure(everything(), {});
    expect(manager.states()[0]!.status).toBe('stopped');
    await manager.configure(everything(), { ev: true });
    await manager.startAll();
    const state = manager.states()[0]!;
    expect(state.status).toBe('ready');
    const names = manager.groups()[0]!.tools.map((t) => t.definition.function.name);
    expect(names).toContain('ev__echo');
    expect(names).toContain('ev__get-sum');
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);

    const approvals: ApprovalRequest[] = [];
    const executor = await executorWith(manager, approvals);
    const result = await executor.execute('ev__get-sum', { a: 2, b: 40 });
    expect(result.status).toBe('SUCCESS');
    expect(result.finalText).toContain('42');
    expect(approvals.map((a) => a.toolName)).toEqual(['ev__get-sum']);
    expect(result.cacheVarResult).toBeTruthy();
  });

  it('validates arguments against inputSchema before the call reaches the server', async () => {
    manager = testManager();
    await manager.configure(everything(), { ev: true });
    await manager.startAll();
    const executor = await executorWith(manager);
    const result = await executor.execute('ev__get-sum', { a: 'two' });
    expect(result.status).toBe('ERROR');
    expect(result.finalText).toMatch(/a|b/);
  });

  it('streams progress to onUpdate and cancels with notifications/cancelled', async () => {
    manager = testManager();
    await manager.configure(everything(), { ev: true });
    await manager.startAll();
    const executor = await executorWith(manager);
    const updates: string[] = [];
    const progress = await executor.execute('ev__trigger-long-running-operation', { duration: 1, steps: 4 }, { onUpdate: (u) => updates.push(u.text ?? '') });
    expect(progress.status).toBe('SUCCESS');
    expect(updates.length).toBeGreaterThanOrEqual(3);
    expect(updates.join('\n')).toMatch(/4/);

    const abort = new AbortController();
    const started = Date.now();
    setTimeout(() => abort.abort(), 300);
    const cancelled = await executor.execute('ev__trigger-long-running-operation', { duration: 20, steps: 20 }, { signal: abort.signal });
    expect(cancelled.status).toBe('ERROR');
    expect(Date.now() - started).toBeLessThan(5000);
    // The server is still usable after the cancellation.
    expect((await executor.execute('ev__echo', { message: 'after' })).finalText).toContain('after');
  });

  it('hands an image result over beside the text that describes it', async () => {
    manager = testManager();
    await manager.configure(everything(), { ev: true });
    await manager.startAll();
    const executor = await executorWith(manager);
    const result = await executor.execute('ev__get-tiny-image', {});
    expect(result.status).toBe('SUCCESS');
    expect(result.finalText).toMatch(/\[image image\/png, \d+ KB\]/);
    const image = result.images?.[0];
    expect(image).toMatchObject({ mimeType: 'image/png', size: expect.any(Number) });
    expect(Buffer.from(image!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(Buffer.from(image!.data!, 'base64').length).toBe(image!.size);
  });

  it('stops the server process when its group is switched off and on close', async () => {
    manager = testManager();
    await manager.configure(everything(), { ev: true });
    await manager.startAll();
    const pid = manager.connection('ev')!.processId() ?? 0;
    expect(pid).toBeGreaterThan(0);
    await manager.configure(everything(), { ev: false });
    await new Promise((r) => setTimeout(r, 300));
    expect(manager.states()[0]!.status).toBe('stopped');
    expect(isAlive(pid)).toBe(false);
  });
});
