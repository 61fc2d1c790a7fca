// Storing a secret through the app (the row's field, setSecret) clears the "secret missing" mark
// of the servers waiting for it, in the keychain only: a value held for this run (no keychain)
// is missing again at the next start, so the mark stays.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KeyringUnavailableError, SecretStore, sessionBackend, type SecretBackend } from '../../../electron/runtime/store/secret-store.ts';
import { startHost } from '../../support/host-app.ts';
import { tempHomes } from '../../support/temp-homes.ts';

const homes = tempHomes();
afterAll(() => homes.removeAll());

const unavailable = (): SecretBackend => {
  const fail = async (): Promise<never> => {
    throw new KeyringUnavailableError('no Secret Service');
  };
  return { kind: 'keyring', get: fail, set: fail, delete: fail, list: fail };
};

async function hostWithMarkedServer(secrets: SecretStore) {
  const home = homes.make();
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ mcpServers: { gh: { command: 'node', args: ['gh.js'], env: { T: '${secret:mcp.gh.T}' }, secretMissing: ['mcp.gh.T'] } } }));
  return startHost({ home, browserMode: true, secrets });
}

describe('clearing "secret missing" from the app', () => {
  it('a secret stored in the keychain clears the mark; the row says so', async () => {
    const host = await hostWithMarkedServer(new SecretStore({ keyring: sessionBackend() }));
    try {
      expect((await host.handlers.listMcpServers({})).find((s) => s.name === 'gh')?.secretMissing).toEqual(['mcp.gh.T']);
      await host.handlers.setSecret({ name: 'mcp.gh.T', value: 'tok-1' });
      expect((await host.handlers.listMcpServers({})).find((s) => s.name === 'gh')?.secretMissing).toBeUndefined();
      expect(host.settings.get().mcpServers.gh).not.toHaveProperty('secretMissing');
    } finally {
      await host.close();
    }
  });

  it('a secret held for this run only leaves the mark', async () => {
    const secrets = new SecretStore({ keyring: unavailable() });
    secrets.useSessionFallback();
    const host = await hostWithMarkedServer(secrets);
    try {
      await host.handlers.setSecret({ name: 'mcp.gh.T', value: 'tok-1' });
      expect(await host.handlers.hasSecret({ name: 'mcp.gh.T' })).toBe(true);
      expect((await host.handlers.listMcpServers({})).find((s) => s.name === 'gh')?.secretMissing).toEqual(['mcp.gh.T']);
    } finally {
      await host.close();
    }
  });
});
