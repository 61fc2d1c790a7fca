// Inspect for MCP tool calls, against real stdio servers through the manager and a real
// ToolExecutor: the `tools/call` request as sent (id, name, arguments), the answer and its isError,
// the server's log lines of the call, the durations, and each of several concurrent calls of one
// server getting its own request, answer and progress (never "the latest call").
import { afterEach, describe, expect, it } from 'vitest';
import type { McpCallTrace } from '../../../shared/tool-inspection.ts';
import type { ToolUpdate } from '../../../shared/tools.ts';
import type { McpManager } from '../../../electron/runtime/sources/mcp/mcp-manager.ts';
import { MAX_CALL_LOG_LINES } from '../../../electron/runtime/sources/mcp/connection/call-recorder.ts';
import { ToolExecutor } from '../../../electron/runtime/tools/tool-executor.ts';
import { EVERYTHING, fixture, startEverythingHttp, testManager } from '../../support/mcp-servers.ts';

let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.close();
  manager = undefined;
});

const logServer = { logs: { command: process.execPath, args: [fixture('log-server.mjs')], sandbox: 'off' } };

async function executorFor(servers: Record<string, unknown>, sessionId = 't'): Promise<ToolExecutor> {
  manager ??= testManager();
  await manager.configure(servers, Object.fromEntries(Object.keys(servers).map((name) => [name, true])));
  await manager.startAll();
  const executor = new ToolExecutor({ sessionId, approve: async () => ({ decision: 'once' }) });
  for (const group of manager.groups()) {
    executor.registerToolGroup(group);
    executor.toggleGroupEnabled(group.name, true);
  }
  return executor;
}

interface SentRequest {
  jsonrpc: string;
  id: number;
  method: string;
  params: { name: string; arguments: Record<string, unknown>; _meta?: { progressToken?: number } };
}

function sent(trace: McpCallTrace | undefined): SentRequest {
  expect(trace?.requests).toHaveLength(1);
  return JSON.parse(trace!.requests[0]!) as SentRequest;
}

const lines = (trace: McpCallTrace, source?: string) => trace.log.filter((l) => !source || l.source === source).map((l) => l.text);

describe('Inspect of an MCP tool call', () => {
  it('shows the request as sent, the answer, isError, the log lines of the call and the durations', async () => {
    const executor = await executorFor(logServer);
    const result = await executor.execute('logs__work', { label: 'one', ms: 150 });
    expect(result.status).toBe('SUCCESS');
    const mcp = result.inspection?.mcp;
    expect(mcp).toMatchObject({ server: 'logs', transport: 'stdio', isError: false });
    expect(mcp!.pid).toBe(manager!.connection('logs')!.processId());
    const request = sent(mcp);
    expect(request).toMatchObject({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'work', arguments: { label: 'one', ms: 150 } } });
    expect(request.id).toBe(mcp!.requestId);
    expect(request.params._meta?.progressToken).toBe(request.id);
    expect(JSON.parse(mcp!.response!)).toEqual({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'worked one' }] } });
    expect(lines(mcp!, 'stderr')).toContain('stderr one');
    expect(lines(mcp!, 'log')).toEqual(['[info] work: log one', '[info] work: done one']);
    expect(lines(mcp!, 'progress')).toEqual(['half one (1/2)']);
    expect(mcp!.log.some((l) => l.shared)).toBe(false);
    expect(mcp!.roundTripMs).toBeGreaterThanOrEqual(140);
    expect(mcp!.roundTripMs).toBeLessThanOrEqual(result.inspection!.timings.runningMs + 1);
    expect(mcp!.startMs).toBeGreaterThanOrEqual(0);
    // The model's text is the server's, not the trace.
    expect(result.finalText).toBe('worked one');
  });

  it('an isError answer is shown as received', async () => {
    const executor = await executorFor(logServer);
    const result = await executor.execute('logs__work', { label: 'bad', fail: true });
    expect(result.status).toBe('ERROR');
    expect(result.inspection?.mcp?.isError).toBe(true);
    expect(JSON.parse(result.inspection!.mcp!.response!).result.isError).toBe(true);
    expect(sent(result.inspection?.mcp).params.arguments).toEqual({ label: 'bad', fail: true });
  });

  it('concurrent calls of one server each get their own request, answer and progress; shared log lines say so', async () => {
    const first = await executorFor(logServer, 'first');
    const second = await executorFor(logServer, 'second');
    let started!: () => void;
    const aStarted = new Promise<void>((resolve) => (started = resolve));
    const a = first.execute('logs__work', { label: 'A', ms: 1500 }, { onUpdate: (u: ToolUpdate) => u.text?.includes('half A') && started() });
    await aStarted;
    // B is sent after A, and is the latest call while both run: each must still get its own.
    const [b, c] = await Promise.all([second.execute('logs__work', { label: 'B', ms: 100 }), first.execute('logs__work', { label: 'C', ms: 300 })]);
    const resultA = await a;
    const traces = { A: resultA.inspection!.mcp!, B: b.inspection!.mcp!, C: c.inspection!.mcp! };
    const ids = new Set<number>();
    for (const [label, trace] of Object.entries(traces)) {
      const request = sent(trace);
      expect(request.params.arguments.label).toBe(label);
      expect(request.id).toBe(trace.requestId);
      ids.add(request.id);
      expect(JSON.parse(trace.response!).id).toBe(request.id);
      expect(JSON.parse(trace.response!).result.content[0].text).toBe(`worked ${label}`);
      expect(lines(trace, 'progress')).toEqual([`half ${label} (1/2)`]);
      expect(trace.log.filter((l) => l.source === 'progress').some((l) => l.shared)).toBe(false);
    }
    expect(ids.size).toBe(3);
    // A's own lines arrived while it ran alone; B's and C's arrived while A ran too.
    expect(traces.A.log.find((l) => l.text === '[info] work: log A')?.shared).toBeUndefined();
    expect(traces.B.log.find((l) => l.text === '[info] work: log B')?.shared).toBe(true);
    expect(lines(traces.B)).not.toContain('[info] work: log A');
    expect(lines(traces.A)).toContain('[info] work: log B');
    expect(traces.A.log.find((l) => l.text === '[info] work: done A')?.shared).toBeUndefined();
  });

  it('a cancelled call shows its request, no answer, and the cancellation sent to the server', async () => {
    const executor = await executorFor(logServer);
    const abort = new AbortController();
    const pending = executor.execute('logs__work', { label: 'slow', ms: 5000 }, { signal: abort.signal, onUpdate: () => abort.abort() });
    const result = await pending;
    expect(result.status).toBe('ERROR');
    const mcp = result.inspection!.mcp!;
    expect(sent(mcp).params.arguments.label).toBe('slow');
    expect(mcp.response).toBeUndefined();
    expect(mcp.isError).toBeUndefined();
    expect(lines(mcp, 'note').join('\n')).toMatch(/sent notifications\/cancelled/);
  });

  it('a flood of log notifications during a call is bounded in its inspection', async () => {
    const executor = await executorFor({ flood: { command: process.execPath, args: [fixture('hostile-server.mjs'), 'flood'], sandbox: 'off' } });
    const result = await executor.execute('flood__echo', {});
    expect(result.finalText).toBe('flooded');
    const mcp = result.inspection!.mcp!;
    expect(mcp.log).toHaveLength(MAX_CALL_LOG_LINES);
    expect(mcp.logCut).toBe(20_000 - MAX_CALL_LOG_LINES);
    expect(mcp.log[0]!.text).toMatch(/^\[info\] line 0 y+$/);
  });

  it('the reference server: the request and the answer of a real call', async () => {
    const executor = await executorFor({ ev: { command: process.execPath, args: [EVERYTHING, 'stdio'], sandbox: 'off' } });
    const result = await executor.execute('ev__get-sum', { a: 2, b: 40 });
    expect(result.status).toBe('SUCCESS');
    const request = sent(result.inspection?.mcp);
    expect(request).toMatchObject({ method: 'tools/call', params: { name: 'get-sum', arguments: { a: 2, b: 40 } } });
    expect(result.inspection!.mcp!.isError).toBe(false);
    expect(result.inspection!.mcp!.response).toContain('42');
  });

  it('over Streamable HTTP too: the request as sent and the answer as received', async () => {
    const http = await startEverythingHttp();
    try {
      const executor = await executorFor({ web: { url: http.url } });
      const result = await executor.execute('web__get-sum', { a: 1, b: 2 });
      expect(result.status).toBe('SUCCESS');
      const mcp = result.inspection!.mcp!;
      expect(mcp).toMatchObject({ server: 'web', transport: 'http', isError: false });
      expect(mcp.pid).toBeUndefined();
      expect(sent(mcp)).toMatchObject({ method: 'tools/call', params: { name: 'get-sum', arguments: { a: 1, b: 2 } } });
      expect(JSON.parse(mcp.response!).id).toBe(mcp.requestId);
    } finally {
      await manager?.close();
      manager = undefined;
      await http.stop();
    }
  });
});
