// The MCP call recorder on a fake transport: a request belongs to the call whose async context
// sent it (even when another call began later), answers and progress go by request id, log lines
// to every open call (shared when several are open), and a call's log is bounded in lines and
// characters.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { MAX_CALL_LOG_CHARS, McpCallRecorder } from '../../../../../electron/runtime/sources/mcp/connection/call-recorder.ts';

function fakeTransport(): Transport & { deliver(message: JSONRPCMessage): void } {
  const transport = {
    async start() {},
    async close() {},
    async send() {},
    deliver(message: JSONRPCMessage) {
      transport.onmessage?.(message);
    },
  } as unknown as Transport & { deliver(message: JSONRPCMessage): void };
  return transport;
}

const call = (id: number, label: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'work', arguments: { label }, _meta: { progressToken: id } } });

describe('McpCallRecorder', () => {
  it('gives each request to the call that sent it, and answers and progress by id', async () => {
    const recorder = new McpCallRecorder();
    const transport = fakeTransport();
    recorder.watch(transport);
    const a = recorder.begin({ server: 's', transport: 'stdio' });
    const b = recorder.begin({ server: 's', transport: 'stdio' });
    // B began last, A sends after it: A's request is still A's.
    await recorder.run(b, () => transport.send(call(2, 'B')));
    await recorder.run(a, async () => {
      await new Promise((r) => setTimeout(r, 5));
      await transport.send(call(1, 'A'));
    });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1, message: 'a half' } });
    recorder.line('[info] someone', 'log');
    transport.deliver({ jsonrpc: '2.0', id: 2, result: { content: [], isError: true } });
    recorder.end(b);
    recorder.line('[info] only A now', 'log');
    transport.deliver({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    recorder.end(a);
    recorder.line('after both', 'stderr');

    expect(a.trace.requests.map((r) => JSON.parse(r).params.arguments.label)).toEqual(['A']);
    expect(b.trace.requests.map((r) => JSON.parse(r).params.arguments.label)).toEqual(['B']);
    expect([a.trace.requestId, b.trace.requestId]).toEqual([1, 2]);
    expect([a.trace.isError, b.trace.isError]).toEqual([false, true]);
    expect(a.trace.log.map((l) => [l.source, l.text, l.shared ?? false])).toEqual([
      ['progress', 'a half (1)', false],
      ['log', '[info] someone', true],
      ['log', '[info] only A now', false],
    ]);
    expect(b.trace.log.map((l) => l.text)).toEqual(['[info] someone']);
  });

  it('a request sent outside any call (a tool list, a ping) is no call\'s', async () => {
    const recorder = new McpCallRecorder();
    const transport = fakeTransport();
    recorder.watch(transport);
    const a = recorder.begin({ server: 's', transport: 'stdio' });
    await transport.send(call(9, 'stray'));
    transport.deliver({ jsonrpc: '2.0', id: 9, result: { content: [] } });
    recorder.end(a);
    expect(a.trace.requests).toEqual([]);
    expect(a.trace.response).toBeUndefined();
  });

  it('bounds a call\'s log by characters as well as lines', () => {
    const recorder = new McpCallRecorder();
    const a = recorder.begin({ server: 's', transport: 'stdio' });
    const long = 'x'.repeat(2000);
    for (let i = 0; i < 100; i++) recorder.line(long, 'stderr');
    recorder.end(a);
    expect(a.trace.log.length).toBe(Math.floor(MAX_CALL_LOG_CHARS / 2000));
    expect(a.trace.logCut).toBe(100 - a.trace.log.length);
  });

  it('keeps an answer\'s media as its size, not its base64 (the inspection is stored in the session file)', async () => {
    const recorder = new McpCallRecorder();
    const transport = fakeTransport();
    recorder.watch(transport);
    const a = recorder.begin({ server: 's', transport: 'stdio' });
    await recorder.run(a, () => transport.send(call(1, 'A')));
    const png = 'iVBORw0KGgo'.repeat(400);
    transport.deliver({
      jsonrpc: '2.0',
      id: 1,
      result: {
        content: [
          { type: 'text', text: 'data' },
          { type: 'image', data: png, mimeType: 'image/png' },
          { type: 'audio', data: png, mimeType: 'audio/wav' },
          { type: 'resource', resource: { uri: 'file:///x.bin', blob: png, mimeType: 'application/octet-stream' } },
        ],
        structuredContent: { data: 'a field called data stays' },
      },
    });
    recorder.end(a);
    const answer = a.trace.response!;
    expect(answer).not.toContain('iVBORw0KGgo');
    expect(answer).toContain('"data":"(4 KB of base64 image data, not kept here)"');
    expect(answer).toContain('"data":"(4 KB of base64 audio data, not kept here)"');
    expect(answer).toContain('"blob":"(4 KB of base64 blob data, not kept here)"');
    expect(answer).toContain('"text":"data"');
    expect(answer).toContain('a field called data stays');
  });
});
