// server-everything's interactive features, over stdio and over Streamable HTTP: list_changed
// (its elicitation/sampling tools appear after initialize), elicitation, sampling, structured
// content, and a crash with restart.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { McpManager } from '../../../electron/runtime/sources/mcp/mcp-manager.ts';
import { formDefaults } from '../../../electron/runtime/sources/mcp/connection/form-defaults.ts';
import type { ElicitationAsk, McpInteractions, SamplingAsk } from '../../../electron/runtime/sources/mcp/types.ts';
import type { ToolContext } from '../../../electron/runtime/tools/types.ts';
import { EVERYTHING, startEverythingHttp, testManager } from '../../support/mcp-servers.ts';

let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.close();
  manager = undefined;
});

let http: Awaited<ReturnType<typeof startEverythingHttp>> | undefined;
beforeAll(async () => {
  http = await startEverythingHttp();
});
afterAll(async () => {
  await http?.stop();
});

const ctx = (): ToolContext => ({ callId: 'c', sessionId: 's', signal: new AbortController().signal, onUpdate: () => {} });
const elicited: ElicitationAsk[] = [];
const sampled: SamplingAsk[] = [];
const interactions: McpInteractions = {
  elicit: async (ask) => {
    elicited.push(ask);
    const content = ask.params.mode === 'url' ? undefined : { ...formDefaults(ask.params.requestedSchema), name: 'Ada Lovelace', check: true };
    return content ? { action: 'accept', content } : { action: 'decline' };
  },
  sample: async (ask) => {
    sampled.push(ask);
    return { role: 'assistant', model: 'fake-model', content: { type: 'text', text: 'a sampled answer' } };
  },
};

async function waitFor(check: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}

// Roots are offered only when the user names them (the working folder is never one by default).
const transports = {
  stdio: () => ({ command: process.execPath, args: [EVERYTHING, 'stdio'], sandbox: 'auto', roots: [process.cwd()] }),
  'streamable HTTP': () => ({ url: http!.url, roots: [process.cwd()] }),
};

describe.each(Object.entries(transports))('server-everything over %s', (_label, entry) => {
  it('list_changed brings the capability-dependent tools; elicitation and sampling reach our handlers', async () => {
    manager = testManager({ interactions });
    await manager.configure({ ev: entry() }, { ev: true });
    await manager.startAll();
    expect(manager.states()[0]).toMatchObject({ status: 'ready' });
    const names = () => manager!.groups()[0]!.tools.map((t) => t.definition.function.name);
    await waitFor(() => names().includes('ev__trigger-elicitation-request'));
    expect(names()).toEqual(expect.arrayContaining(['ev__trigger-elicitation-request', 'ev__trigger-sampling-request', 'ev__get-roots-list']));

    const connection = manager.connection('ev')!;
    elicited.length = 0;
    const form = await connection.callTool('trigger-elicitation-request', {}, ctx());
    expect(form.status).toBe('SUCCESS');
    expect(elicited[0]!.server).toBe('ev');
    expect(form.formattedText).toContain('Ada Lovelace');
    expect(form.formattedText).toContain('It was a dark and stormy night.');

    sampled.length = 0;
    const sample = await connection.callTool('trigger-sampling-request', { prompt: 'hi', maxTokens: 20 }, ctx());
    expect(sample.status).toBe('SUCCESS');
    expect(sampled).toHaveLength(1);
    expect(sample.formattedText).toContain('a sampled answer');

    const roots = await connection.callTool('get-roots-list', {}, ctx());
    expect(roots.formattedText).toContain(`file://${process.cwd()}`);

    const structured = await connection.callTool('get-structured-content', { location: 'New York' }, ctx());
    expect(structured.status).toBe('SUCCESS');
    expect(structured.data).toMatchObject({ temperature: expect.any(Number) });
  });
});

describe('server-everything over the legacy HTTP+SSE transport', () => {
  it('lists and calls tools', async () => {
    const sse = await startEverythingHttp('sse');
    try {
      manager = testManager();
      await manager.configure({ old: { type: 'sse', url: sse.url } }, { old: true });
      await manager.startAll();
      expect(manager.states()[0]).toMatchObject({ status: 'ready', transport: 'sse' });
      const result = await manager.connection('old')!.callTool('get-sum', { a: 2, b: 3 }, ctx());
      expect(result.formattedText).toBe('The sum of 2 and 3 is 5.');
    } finally {
      await manager?.close();
      await sse.stop();
    }
  });
});

describe('a crash of a real server', () => {
  it('fails the pending call naming the crash, then restarts and serves again', async () => {
    manager = testManager();
    await manager.configure({ ev: { command: process.execPath, args: [EVERYTHING, 'stdio'], sandbox: 'off' } }, { ev: true });
    await manager.startAll();
    const connection = manager.connection('ev')!;
    const pid = connection.processId()!;
    const pending = connection.callTool('trigger-long-running-operation', { duration: 10, steps: 5 }, ctx());
    await new Promise((r) => setTimeout(r, 300));
    process.kill(pid, 'SIGKILL');
    const failed = await pending;
    expect(failed.status).toBe('ERROR');
    expect(failed.error).toMatch(/MCP server "ev" crashed \(killed by SIGKILL\)/);
    await waitFor(() => manager!.states()[0]!.status === 'ready');
    expect(manager.states()[0]).toMatchObject({ status: 'ready', restarts: 1 });
    expect(connection.processId()).not.toBe(pid);
    const again = await connection.callTool('get-sum', { a: 1, b: 1 }, ctx());
    expect(again.formattedText).toContain('2');
  });
});
