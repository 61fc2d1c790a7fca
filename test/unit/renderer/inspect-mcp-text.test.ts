// The texts of an MCP call's Inspect parts: the request pretty-printed when whole and kept as is
// when cut, a missing answer said in words, shared log lines marked and explained, a cut counted.
import { describe, expect, it } from 'vitest';
import type { McpCallTrace } from '../../../shared/tool-inspection.ts';
import { mcpAnswerText, mcpLogText, mcpRequestText, mcpServerText } from '../../../renderer/src/chat/tool-calls/inspect-mcp-text.ts';

const trace = (patch: Partial<McpCallTrace> = {}): McpCallTrace => ({ server: 'logs', transport: 'stdio', requests: [], log: [], startMs: 0, roundTripMs: 12, ...patch });

describe('Inspect texts of an MCP call', () => {
  it('pretty-prints a whole request and keeps a cut one as it was kept', () => {
    const whole = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'work', arguments: { label: 'a' } } });
    expect(mcpRequestText(trace({ requests: [whole] }))).toBe(JSON.stringify(JSON.parse(whole), null, 2));
    const cut = `${whole.slice(0, 20)}… [99 more characters not kept]`;
    expect(mcpRequestText(trace({ requests: [cut] }))).toBe(cut);
    expect(mcpRequestText(trace())).toMatch(/Nothing was sent/);
  });

  it('says isError with the answer, and that none came when none did', () => {
    expect(mcpAnswerText(trace({ response: '{"id":3,"result":{"isError":true}}', isError: true }))).toMatch(/^isError: true\n\{/);
    expect(mcpAnswerText(trace())).toMatch(/^No answer/);
  });

  it('marks lines that arrived while other calls ran, and counts the lines not kept', () => {
    const text = mcpLogText(trace({ log: [{ atMs: 1, source: 'stderr', text: 'mine' }, { atMs: 5, source: 'log', text: 'maybe theirs', shared: true }], logCut: 7 }));
    expect(text.split('\n')).toEqual([
      '+1 ms stderr  mine',
      '+5 ms log*  maybe theirs',
      '… 7 more lines not kept (the server\'s whole log: tooldesk mcp logs logs)',
      '* arrived while other calls to this server ran: MCP does not say which call a log line belongs to.',
    ]);
    expect(mcpLogText(trace())).toMatch(/logged nothing/);
  });

  it('names the server, its process, the request id and the durations', () => {
    expect(mcpServerText(trace({ pid: 42, requestId: 3, startMs: 1500 }))).toBe('logs (stdio, pid 42) · request id 3 · starting the server 1.5 s · round trip 12 ms');
  });
});
