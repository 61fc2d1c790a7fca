// Servers that misbehave (test/fixtures/mcp/hostile-server.mjs): each ends in a clear state or an
// ERROR result, bounded, and the other servers keep working.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { McpManager } from '../../../electron/runtime/sources/mcp/mcp-manager.ts';
import type { McpClientDeps } from '../../../electron/runtime/sources/mcp/types.ts';
import type { ToolContext } from '../../../electron/runtime/tools/types.ts';
import { ToolExecutor } from '../../../electron/runtime/tools/tool-executor.ts';
import { waitNoneWithMarker } from '../../support/live-processes.ts';
import { fixture, testManager } from '../../support/mcp-servers.ts';

const HOSTILE = fixture('hostile-server.mjs');
const hostile = (mode: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [HOSTILE, mode], ...extra });

let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.close();
  manager = undefined;
});
// No orphans: every server process (and its group) is gone once its manager closed.
afterAll(async () => {
  expect(await waitNoneWithMarker(HOSTILE, 3000)).toEqual([]);
});

async function started(servers: Record<string, unknown>, deps: Partial<McpClientDeps> = {}): Promise<McpManager> {
  manager = testManager(deps);
  await manager.configure(servers, Object.fromEntries(Object.keys(servers).map((k) => [k, true])));
  await manager.startAll();
  return manager;
}

const ctx = (signal = new AbortController().signal): ToolContext => ({ callId: 'c', sessionId: 's', signal, onUpdate: () => {} });
const state = (m: McpManager, name: string) => m.states().find((s) => s.name === name)!;

describe('misbehaving MCP servers', () => {
  it('a server that never answers initialize fails with a start timeout; the others still work', async () => {
    const m = await started({ mute: hostile('silent'), ok: hostile('garbage') }, { startTimeoutMs: 1500 });
    expect(state(m, 'mute')).toMatchObject({ status: 'failed' });
    expect(state(m, 'mute').detail).toMatch(/did not answer initialize within 1\.5 s/);
    expect(state(m, 'ok').status).toBe('ready');
    const call = await m.connection('mute')!.callTool('echo', {}, ctx());
    expect(call).toMatchObject({ status: 'ERROR' });
    expect(call.error).toMatch(/MCP server "mute" .*did not answer initialize/);
    expect(m.diagnostics().some((d) => d.file === 'mcpServers.mute' && d.severity === 'error')).toBe(true);
  });

  it('a server that exits at once says how, with its stderr', async () => {
    const m = await started({ gone: hostile('exit') });
    const s = state(m, 'gone');
    expect(s.status).toBe('failed');
    expect(s.detail).toMatch(/exited with code 3/);
    expect(s.detail).toContain('missing configuration file');
  });

  it('garbage on stdout goes to the log, the protocol goes on', async () => {
    const m = await started({ noisy: hostile('garbage') });
    expect(state(m, 'noisy').status).toBe('ready');
    const call = await m.connection('noisy')!.callTool('echo', { size: 1 }, ctx());
    expect(call).toMatchObject({ status: 'SUCCESS', formattedText: 'echo {"size":1}' });
    expect(m.connection('noisy')!.log.lines().join('\n')).toContain('not JSON-RPC on stdout (ignored): Starting hostile server v1.0...');
  });

  it('a flood of log notifications is bounded in the server log', async () => {
    const m = await started({ flood: hostile('flood') });
    const call = await m.connection('flood')!.callTool('echo', {}, ctx());
    expect(call.formattedText).toBe('flooded');
    const lines = m.connection('flood')!.log.lines();
    expect(lines.length).toBeLessThanOrEqual(2001);
    expect(lines[0]).toMatch(/earlier lines dropped/);
    expect(lines.at(-1)).toContain('line 19999');
  });

  it('10 000 tools are cut to the bound with a diagnostic', async () => {
    const m = await started({ many: hostile('many-tools') });
    expect(m.groups()[0]!.tools).toHaveLength(1000);
    expect(m.diagnostics().map((d) => d.message)).toContain('the server lists 10000 tools; only the first 1000 are used');
  });

  it('a 5 MB schema and a cyclic $ref are replaced with diagnostics; the other tools are intact', async () => {
    const m = await started({ big: hostile('big-schema') });
    const tools = Object.fromEntries(m.groups()[0]!.tools.map((t) => [t.definition.function.name, t.definition.function.parameters]));
    expect(tools.big__wide).toEqual({ type: 'object', additionalProperties: true });
    expect(tools.big__loop).toEqual({ type: 'object', additionalProperties: true });
    expect(tools.big__echo).toMatchObject({ properties: { size: { type: 'number' } } });
    const messages = m.diagnostics().map((d) => d.message).join('\n');
    expect(messages).toMatch(/tool "wide": its input schema is \d+ KB/);
    expect(messages).toMatch(/tool "loop": its input schema's \$ref/);
  });

  it('names that clean to the same text get distinct valid names', async () => {
    const m = await started({ c: hostile('clash') });
    const names = m.groups()[0]!.tools.map((t) => t.definition.function.name);
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(names).toContain('c__a_b');
    expect(m.groups()[0]!.tools.map((t) => (t.meta!.mcp as { tool: string }).tool)).toEqual(['a.b', 'a b', 'a_b']);
  });

  it('a 100 MB result is dropped with an ERROR; a 5 MB one is truncated for the model and kept in its variable', async () => {
    const m = await started({ big: hostile('huge-result') });
    const executor = new ToolExecutor({ sessionId: 's', approve: async () => ({ decision: 'once' }) });
    executor.registerToolGroup(m.groups()[0]!);
    executor.toggleGroupEnabled('big', true);
    const huge = await executor.execute('big__echo', {});
    expect(huge.status).toBe('ERROR');
    expect(huge.finalText).toMatch(/answer was 100 MB, over the 64 MB bound, and was dropped/);
    const five = await executor.execute('big__echo', { size: 5 * 1024 * 1024 });
    expect(five.status).toBe('SUCCESS');
    expect(five.isTruncated).toBe(true);
    expect(five.finalText!.length).toBeLessThan(20_000);
    expect(executor.variables.get(five.cacheVarResult!)?.value.length).toBe(5 * 1024 * 1024);
  }, 60_000);

  it('a crash during a call is an ERROR naming it; the server is restarted with backoff', async () => {
    const m = await started({ crashy: hostile('crash-on-call') });
    const call = await m.connection('crashy')!.callTool('echo', {}, ctx());
    expect(call.status).toBe('ERROR');
    expect(call.error).toMatch(/MCP server "crashy" crashed \(exit code 139\)/);
    expect(state(m, 'crashy').detail).toContain('segfault (simulated)');
    const end = Date.now() + 5000;
    while (state(m, 'crashy').status !== 'ready' && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(state(m, 'crashy')).toMatchObject({ status: 'ready', restarts: 1 });
  });

  it('sampling requests in a loop are bounded per call', async () => {
    let asked = 0;
    const m = await started(
      { loop: hostile('sampling-loop') },
      {
        interactions: {
          sample: async () => {
            asked++;
            return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'test' };
          },
        },
      },
    );
    const call = await m.connection('loop')!.callTool('echo', {}, ctx());
    expect(call.formattedText).toBe('answered 5');
    expect(asked).toBe(5);
  });

  it('a form elicitation asking for a password is refused without asking the user', async () => {
    let asked = 0;
    const m = await started({ phish: hostile('password-elicit') }, { interactions: { elicit: async () => (asked++, { action: 'accept', content: { password: 'hunter2' } }) } });
    const call = await m.connection('phish')!.callTool('echo', {}, ctx());
    expect(JSON.parse(call.formattedText!)).toEqual({ action: 'decline' });
    expect(asked).toBe(0);
    expect(m.connection('phish')!.log.lines().join('\n')).toContain('refused a form elicitation asking for "password"');
  });

  it('cancelling a call sends notifications/cancelled to the server', async () => {
    // Under /var/tmp and named in `writable`: the sandbox gives servers a private /tmp.
    const dir = mkdtempSync('/var/tmp/mcp-cancel-');
    const record = join(dir, 'cancelled.jsonl');
    const m = await started({ slow: { command: process.execPath, args: [HOSTILE, 'cancel-record', record], writable: [dir] } });
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 200);
    const call = await m.connection('slow')!.callTool('echo', {}, ctx(abort.signal));
    expect(call.error).toMatch(/cancelled/);
    const end = Date.now() + 3000;
    while (!existsSync(record) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(JSON.parse(readFileSync(record, 'utf8').trim().split('\n')[0]!)).toHaveProperty('requestId');
  });

  it('list_changed reloads the group', async () => {
    const m = await started({ live: hostile('list-changed') });
    let changes = 0;
    m.onChanged(() => changes++);
    expect(m.groups()[0]!.tools.map((t) => t.definition.function.name)).toEqual(['live__echo', 'live__add_tool']);
    await m.connection('live')!.callTool('add_tool', {}, ctx());
    const end = Date.now() + 3000;
    while (m.groups()[0]!.tools.length < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(m.groups()[0]!.tools.map((t) => t.definition.function.name)).toContain('live__added2');
    expect(changes).toBeGreaterThan(0);
  });
});
