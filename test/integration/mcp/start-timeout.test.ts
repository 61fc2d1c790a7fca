// Issue #36 item 11: a server's start budget is a per-server setting (`startTimeoutMs`) with the
// default in settings (`limits.mcpStartTimeoutMs`); a slow server never holds up the others (they
// are ready while it still starts); every start keeps a timeline (spawn, initialize, tools/list)
// that the row, Inspect and `mcp list --status` show, and a start given up says where it stood.
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings.ts';
import { mcpDeps } from '../../../electron/runtime/sources/mcp/index.ts';
import type { McpManager } from '../../../electron/runtime/sources/mcp/mcp-manager.ts';
import { parseMcpServer } from '../../../electron/runtime/sources/mcp/config/server-config.ts';
import { fixture, testManager } from '../../support/mcp-servers.ts';

const SLOW = fixture('slow-start-server.mjs');
const slow = (delayMs: number, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [SLOW, String(delayMs)], sandbox: 'off', ...extra });

let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.close();
  manager = undefined;
});
const state = (m: McpManager, name: string) => m.states().find((s) => s.name === name)!;

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('MCP start budget and timeline', () => {
  it("a server's own startTimeoutMs bounds its start; the message says where it stood and what to raise", async () => {
    manager = testManager({ startTimeoutMs: 30_000 });
    await manager.configure({ late: slow(5000, { startTimeoutMs: 1000 }), quick: slow(0) }, { late: true, quick: true });
    await manager.startAll();
    const late = state(manager, 'late');
    expect(late.status).toBe('failed');
    expect(late.detail).toMatch(/did not answer initialize within 1 s \(spawn \d+ ms · initialize not reached · tools\/list not reached\)/);
    expect(late.detail).toContain('tooldesk config set mcpServers.late.startTimeoutMs 120000');
    expect(late.startTimeline).toMatchObject({ timeoutMs: 1000, steps: [{ step: 'spawn' }] });
    expect(state(manager, 'quick').status).toBe('ready');
  });

  it('a slow server starts while the others are already ready, and its timeline has every step', async () => {
    manager = testManager({ startTimeoutMs: 1000 });
    // The manager's default (1 s) would fail it; its own 15 s lets it finish.
    await manager.configure({ slowpoke: slow(2000, { startTimeoutMs: 15_000 }), quick: slow(0) }, { slowpoke: true, quick: true });
    const all = manager.startAll();
    await until(() => state(manager!, 'quick').status === 'ready');
    expect(state(manager, 'slowpoke').status).toBe('starting');
    const since = state(manager, 'slowpoke').startTimeline!.since;
    expect(Date.now() - since).toBeLessThan(2000);
    expect(manager.groups().some((g) => g.name === 'quick' && g.tools.length === 1)).toBe(true);
    await all;
    const done = state(manager, 'slowpoke');
    expect(done.status).toBe('ready');
    const steps = Object.fromEntries(done.startTimeline!.steps.map((s) => [s.step, s.ms]));
    expect(Object.keys(steps)).toEqual(['spawn', 'initialize', 'tools/list']);
    expect(steps.initialize).toBeGreaterThanOrEqual(1900);
    expect(steps['tools/list']).toBeGreaterThanOrEqual(steps.initialize!);
  });

  it('the default comes from limits.mcpStartTimeoutMs; a bad per-server value names the field', () => {
    const settings = defaultSettings();
    expect(mcpDeps(settings, { resolveSecrets: async (n) => ({ values: {}, missing: n }) }).startTimeoutMs).toBe(30_000);
    settings.limits.mcpStartTimeoutMs = 90_000;
    expect(mcpDeps(settings, { resolveSecrets: async (n) => ({ values: {}, missing: n }) }).startTimeoutMs).toBe(90_000);
    expect(parseMcpServer('x', { command: 'node', startTimeoutMs: -5 })).toEqual({ error: expect.stringContaining('MCP server "x": "startTimeoutMs" must be a positive number of milliseconds') });
    expect(parseMcpServer('x', { command: 'node', startTimeoutMs: 120_000 })).toMatchObject({ server: { startTimeoutMs: 120_000 } });
  });
});
