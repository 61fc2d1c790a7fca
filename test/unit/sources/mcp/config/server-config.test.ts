import { describe, expect, it } from 'vitest';
import { parseMcpServers } from '../../../../../electron/runtime/sources/mcp/config/server-config.ts';

describe('mcpServers entries', () => {
  it('reads the Claude Desktop / Cursor shapes and our fields', () => {
    const { servers, diagnostics } = parseMcpServers({
      files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { A: '1' }, trust: true, writable: ['/tmp'] },
      remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${secret:TOKEN}' }, timeoutMs: 5000 },
      old: { type: 'sse', url: 'http://127.0.0.1:9/sse', disabled: true },
    });
    expect(diagnostics).toEqual([]);
    expect(servers).toMatchObject([
      { name: 'files', kind: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { A: '1' }, trust: true, sandbox: 'auto', enabled: true, timeoutMs: 60_000 },
      { name: 'remote', kind: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${secret:TOKEN}' }, timeoutMs: 5000, trust: false },
      { name: 'old', kind: 'sse', enabled: false },
    ]);
  });

  it('names the server and the field of a broken entry, and keeps the others', () => {
    const { servers, diagnostics } = parseMcpServers({
      good: { command: 'node' },
      a: { command: 'x', args: 'not-a-list' },
      b: { command: 'x', env: { PORT: 8080 } },
      c: { url: 'ftp://x' },
      d: { command: 'x', url: 'http://x' },
      e: {},
      f: 'npx foo',
      g: { command: 'x', sandbox: 'strict' },
      h: { command: 'x', timeoutMs: -1 },
      i: { command: 'x', toolTimeouts: [1000] },
      j: { command: 'x', toolTimeouts: { search: '2m' } },
      k: { url: 'http://x', toolTimeouts: { slow: 1e12 } },
    });
    expect(servers.map((s) => s.name)).toEqual(['good']);
    const text = diagnostics.map((d) => `${d.file}: ${d.message}`);
    expect(text).toEqual([
      'mcpServers.a: MCP server "a": "args" must be an array of strings',
      'mcpServers.b: MCP server "b": "env".PORT must be a string (an object of variable names to values)',
      'mcpServers.c: MCP server "c": "url" must start with http:// or https:// (got ftp:)',
      'mcpServers.d: MCP server "d": the entry has both "command" and "url": keep one',
      'mcpServers.e: MCP server "e": the entry needs "command" (a local server) or "url" (a remote one)',
      'mcpServers.f: MCP server "f": the entry must be an object with "command" (a local server) or "url" (a remote one)',
      'mcpServers.g: MCP server "g": "sandbox" must be "auto" or "off" (got "strict")',
      'mcpServers.h: MCP server "h": "timeoutMs" must be a positive number of milliseconds (at most a day, 86400000)',
      'mcpServers.i: MCP server "i": "toolTimeouts" must be an object of tool names to milliseconds, e.g. {"search": 120000}',
      'mcpServers.j: MCP server "j": "toolTimeouts".search must be a positive number of milliseconds (at most a day, 86400000)',
      'mcpServers.k: MCP server "k": "toolTimeouts".slow must be a positive number of milliseconds (at most a day, 86400000)',
    ]);
  });

  it('per-tool timeouts sit beside the server one; several writable folders are kept as given', () => {
    const { servers, diagnostics } = parseMcpServers({ s: { command: 'x', timeoutMs: 5000, toolTimeouts: { slow: 120_000 }, writable: ['/a', '~/b'] } });
    expect(diagnostics).toEqual([]);
    expect(servers[0]).toMatchObject({ timeoutMs: 5000, toolTimeouts: { slow: 120_000 }, writable: ['/a', '~/b'] });
  });

  it('warns about fields it does not use', () => {
    const { diagnostics } = parseMcpServers({ s: { command: 'x', autoApprove: ['a'] } });
    expect(diagnostics[0]).toMatchObject({ severity: 'warning', message: 'MCP server "s": field "autoApprove" is not used by Tooldesk' });
  });
});
