// The "secret missing" mark on settings entries: marked at import, cleared secret by secret.
import { describe, expect, it } from 'vitest';
import { clearSecretMissing, markSecretsMissing, missingSecretsOf, secretStored } from '../../../../../electron/runtime/sources/mcp/config/secret-missing.ts';
import { parseMcpServers } from '../../../../../electron/runtime/sources/mcp/config/server-config.ts';

describe('secret missing', () => {
  it('marks an entry, adding to an existing mark without repeats; no names leaves it as it is', () => {
    const entry = { command: 'npx', env: { A: '${secret:mcp.s.A}' } };
    expect(markSecretsMissing(entry, [])).toBe(entry);
    const marked = markSecretsMissing(markSecretsMissing(entry, ['mcp.s.A']), ['mcp.s.A', 'mcp.s.B']);
    expect(missingSecretsOf(marked)).toEqual(['mcp.s.A', 'mcp.s.B']);
    expect(missingSecretsOf({ secretMissing: 'not a list' })).toEqual([]);
  });

  it('clears one secret from every mark, drops an emptied mark, and says when nothing changed', () => {
    const servers = { s: { command: 'x', secretMissing: ['A', 'B'] }, t: { command: 'y', secretMissing: ['A'] }, u: { command: 'z' } };
    const next = clearSecretMissing(servers, 'A')!;
    expect(next.s).toEqual({ command: 'x', secretMissing: ['B'] });
    expect(next.t).toEqual({ command: 'y' });
    expect(next.u).toBe(servers.u);
    expect(clearSecretMissing(servers, 'C')).toBeNull();
  });

  it('writes settings only when a server was waiting for the secret', () => {
    const writes: unknown[] = [];
    let current: { mcpServers: unknown } = { mcpServers: { s: { command: 'x', secretMissing: ['A'] } } };
    const store = { get: () => current, set: (_key: 'mcpServers', value: never) => writes.push((current = { mcpServers: value })) };
    secretStored(store, 'B');
    expect(writes).toHaveLength(0);
    secretStored(store, 'A');
    expect(current.mcpServers).toEqual({ s: { command: 'x' } });
  });

  it('is a field the server config knows (no "not used by Tooldesk" warning)', () => {
    const { servers, diagnostics } = parseMcpServers({ s: { command: 'node', args: ['a.js'], secretMissing: ['mcp.s.A'] } });
    expect(servers).toHaveLength(1);
    expect(diagnostics).toEqual([]);
  });
});
