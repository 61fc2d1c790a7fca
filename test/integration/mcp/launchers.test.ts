// The way most users' configs start servers: `npx -y pkg` under the default sandbox (network
// allowed, home read-only, the launcher's cache ~/.npm writable). Needs the npm registry.
import { mkdtempSync } from 'node:fs';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { McpManager } from '../../../electron/runtime/sources/mcp/mcp-manager.ts';
import { testManager } from '../../support/mcp-servers.ts';

let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.close();
  manager = undefined;
});

describe('package launchers under the default sandbox', () => {
  it('npx -y @modelcontextprotocol/server-everything starts sandboxed with ~/.npm writable', async () => {
    // A folder outside the checkout, so npx fetches the package instead of finding ours.
    manager = testManager({ workingDir: mkdtempSync('/var/tmp/td-npx-'), startTimeoutMs: 120_000 });
    await manager.configure({ ev: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'] } }, { ev: true });
    await manager.startAll();
    const state = manager.states()[0]!;
    expect(state, state.detail).toMatchObject({ status: 'ready' });
    expect(state.tools).toBeGreaterThan(5);
    expect(state.sandboxed).toBe(true);
    expect(state.detail).toMatch(/sandboxed: network allowed, home read-only, writes to .*\.npm/);
  }, 150_000);

  it('npx with another writable folder says why it fails and what to change', async () => {
    // The home must be one the sandbox keeps read-only: a home under /tmp (as CI's test home is)
    // disappears behind the sandbox's private /tmp, where npx could write a fresh cache.
    const savedHome = process.env.HOME;
    process.env.HOME = mkdtempSync('/var/tmp/td-npx-home-');
    onTestFinished(() => {
      process.env.HOME = savedHome;
    });
    const other = mkdtempSync('/var/tmp/td-npx-other-');
    manager = testManager({ workingDir: mkdtempSync('/var/tmp/td-npx-'), startTimeoutMs: 120_000 });
    await manager.configure({ ev: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'], writable: [other] } }, { ev: true });
    await manager.startAll();
    const state = manager.states()[0]!;
    expect(state.sandboxed).toBe(true); // bubblewrap is installed wherever these tests run (.ci/run)
    expect(state.status).toBe('failed');
    expect(state.detail).toContain('hint: npx writes to ~/.npm, read-only under the sandbox unless it is one of the "writable" folders: add it there');
  }, 150_000);
});
