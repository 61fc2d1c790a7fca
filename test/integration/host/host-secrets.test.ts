// The host without a system keyring: it says so (start-up warning, appInfo) and keeps API keys
// for the running process only, so a provider's key entered in Settings still works. Start-up
// warnings (a corrupt settings file replaced) reach the UI through appInfo.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startHost } from '../../support/host-app.ts';
import { KeyringUnavailableError, SecretStore, type SecretBackend } from '../../../electron/runtime/store/secret-store.ts';

const fail = async (): Promise<never> => {
  throw new KeyringUnavailableError('DBus error: no session bus');
};
const noKeyring: SecretBackend = { kind: 'keyring', get: fail, set: fail, delete: fail, list: fail };

describe('host without a keyring', () => {
  it('warns, reports session-only secrets, and keeps a key for this run', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-'));
    writeFileSync(join(home, 'settings.json'), '{"providers": [');
    const host = await startHost({ home, browserMode: false, secrets: new SecretStore({ keyring: noKeyring }), sessionSecretsFallback: true, watchTools: false });
    try {
      expect(host.warnings.join('\n')).toMatch(/No system keyring is available \(DBus error: no session bus\).*kept in memory until Tooldesk stops/);
      const info = await host.handlers.appInfo({});
      expect(info.secrets).toEqual({ backend: 'session', detail: expect.stringMatching(/No system keyring/) });
      expect(info.warnings).toEqual([expect.stringMatching(/settings\.json could not be used: it is not valid JSON.*replaced by the defaults/)]);
      await host.handlers.setSecret({ name: 'OPENAI_API_KEY', value: 'sk-run' });
      expect(await host.handlers.hasSecret({ name: 'OPENAI_API_KEY' })).toBe(true);
    } finally {
      await host.close();
    }
    // Without the fallback, setting a key fails with the explanation.
    const strict = await startHost({ home, browserMode: false, secrets: new SecretStore({ keyring: noKeyring }), watchTools: false });
    try {
      expect((await strict.handlers.appInfo({})).secrets.backend).toBe('none');
      await expect(strict.handlers.setSecret({ name: 'OPENAI_API_KEY', value: 'sk-run' })).rejects.toThrow(/No system keyring is available/);
    } finally {
      await strict.close();
    }
  });
});
