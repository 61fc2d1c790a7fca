// Settings → MCP servers through the API host built by createRuntime: add the real "everything"
// server, switch it on, see it ready with its tools (as events), restart, import, remove.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRuntime, type Runtime } from '../../../electron/runtime/create-runtime.ts';
import { SecretStore, sessionBackend } from '../../../electron/runtime/store/secret-store.ts';
import type { ApiEvent, McpServerView } from '../../../shared/api.ts';
import { EVERYTHING } from '../../support/mcp-servers.ts';

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  vi.unstubAllEnvs();
});

async function openHost() {
  const home = mkdtempSync('/var/tmp/td-mcp-settings-');
  const secrets = new SecretStore({ keyring: sessionBackend() });
  runtime = await createRuntime({ home, secrets, tools: { roots: [mkdtempSync('/var/tmp/td-mcp-roots-')] } });
  const host = await runtime.host({ browserMode: true });
  const events: ApiEvent[] = [];
  host.onEvent((e) => events.push(e));
  const serverIn = (name: string) => () => {
    const last = [...events].reverse().find((e): e is Extract<ApiEvent, { type: 'mcp.changed' }> => e.type === 'mcp.changed');
    return last?.servers.find((s) => s.name === name);
  };
  return { home, host, handlers: host.handlers, secrets, events, serverIn };
}

const waitFor = async (check: () => McpServerView | undefined, predicate: (s: McpServerView) => boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const s = check();
    if (s && predicate(s)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out; last state ${JSON.stringify(check())}`);
};

describe('Settings → MCP servers over the API', () => {
  it('adds a server switched off, starts it when switched on (ready with N tools, live), restarts and removes it', async () => {
    const { handlers, serverIn } = await openHost();
    const added = await handlers.addMcpServer({ name: 'ev', command: process.execPath, args: [EVERYTHING, 'stdio'] });
    expect(added).toEqual([expect.objectContaining({ name: 'ev', enabled: false, status: 'disabled', transport: 'stdio', target: `${process.execPath} ${EVERYTHING} stdio` })]);
    expect(added[0]!.sandbox).toMatch(/sandbox/);

    await handlers.setGroupEnabled({ group: 'ev', enabled: true });
    const ready = await waitFor(serverIn('ev'), (s) => s.status === 'ready');
    expect(ready.tools).toBeGreaterThan(5);
    const tools = await handlers.listTools({});
    expect(tools.groups.find((g) => g.name === 'ev')?.tools.map((t) => t.name)).toContain('ev__get-sum');

    const restarted = await handlers.restartMcpServer({ name: 'ev' });
    expect(restarted[0]).toMatchObject({ name: 'ev', status: 'ready' });

    await handlers.setGroupEnabled({ group: 'ev', enabled: false });
    await waitFor(serverIn('ev'), (s) => s.status === 'disabled' || s.status === 'stopped');
    expect(await handlers.removeMcpServer({ name: 'ev' })).toEqual([]);
    expect(runtime!.settings.get().mcpServers).toEqual({});
    expect(runtime!.settings.get().groupDefaults.ev).toBeUndefined();
  });

  it('refuses what a hurried user types: a taken name, both or neither of command and URL, a bad URL, args that are not strings', async () => {
    const { handlers } = await openHost();
    await handlers.addMcpServer({ name: 'a', command: 'node' });
    await expect(handlers.addMcpServer({ name: 'a', command: 'node' })).rejects.toThrow(/already exists/);
    await expect(handlers.addMcpServer({ name: '../etc', command: 'node' })).rejects.toThrow(/cannot be a server name/);
    await expect(handlers.addMcpServer({ name: 'my server', command: 'node' })).rejects.toThrow(/cannot be a server name/);
    await expect(handlers.addMcpServer({ name: 'b' })).rejects.toThrow(/either a command .* or a URL/);
    await expect(handlers.addMcpServer({ name: 'b', command: 'x', url: 'http://h/' })).rejects.toThrow(/either/);
    await expect(handlers.addMcpServer({ name: 'b', url: 'not a url' })).rejects.toThrow(/url/i);
    await expect(handlers.addMcpServer({ name: 'b', command: 'x', args: [1] as unknown as string[] })).rejects.toThrow(/args must be a list of strings/);
    await expect(handlers.removeMcpServer({ name: 'nope' })).rejects.toThrow(/no MCP server named "nope"/);
    await expect(handlers.restartMcpServer({ name: 'a' })).rejects.toThrow(/switched off/);
  });

  it('previews an import from Cursor (secrets named, not shown), then imports with the secret in the keychain', async () => {
    const fakeHome = mkdtempSync('/var/tmp/td-mcp-import-home-');
    mkdirSync(join(fakeHome, '.cursor'));
    writeFileSync(
      join(fakeHome, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { gh: { command: 'npx', args: ['-y', 'gh-mcp'], env: { GITHUB_TOKEN: 'ghp_secret' } }, broken: { args: [] }, greedy: { command: 'node', args: ['s.js'], env: { K: '${secret:OPENAI_KEY}' } } } }),
    );
    vi.stubEnv('HOME', fakeHome);
    vi.stubEnv('XDG_CONFIG_HOME', join(fakeHome, '.config'));
    const { handlers, secrets } = await openHost();
    const preview = await handlers.previewMcpImport({});
    expect(preview.add).toEqual([
      { name: 'gh', from: expect.stringContaining('Cursor'), target: 'npx -y gh-mcp', secrets: ['mcp.gh.GITHUB_TOKEN'], references: ['mcp.gh.GITHUB_TOKEN'], foreign: [], questions: [] },
      { name: 'greedy', from: expect.stringContaining('Cursor'), target: 'node s.js', secrets: [], references: ['OPENAI_KEY'], foreign: ['OPENAI_KEY'], questions: [] },
    ]);
    expect(JSON.stringify(preview)).not.toContain('ghp_secret');
    expect(preview.skipped.map((s) => s.name)).toEqual(['broken']);
    expect(preview.searched.some((f) => f.includes(join(fakeHome, '.cursor', 'mcp.json')))).toBe(true);

    await expect(handlers.importMcpServers({ names: ['other'] })).rejects.toThrow(/not in the import/);
    const rows = await handlers.importMcpServers({ names: ['gh'] });
    expect(rows.map((r) => r.name)).toEqual(['gh']);
    expect(await secrets.get('mcp.gh.GITHUB_TOKEN')).toBe('ghp_secret');
    expect(JSON.stringify(runtime!.settings.get().mcpServers)).not.toContain('ghp_secret');

    // A keychain secret outside the server's own mcp.greedy.* names: only with the user's yes for it.
    await expect(handlers.importMcpServers({ names: ['greedy'] })).rejects.toThrow('"greedy" would receive keychain secret OPENAI_KEY, which is not one of its own (mcp.greedy.*)');
    expect(runtime!.settings.get().mcpServers).not.toHaveProperty('greedy');
    const allowed = await handlers.importMcpServers({ names: ['greedy'], allowSecrets: ['OPENAI_KEY'] });
    expect(allowed.map((r) => r.name)).toEqual(['gh', 'greedy']);
  });
});
