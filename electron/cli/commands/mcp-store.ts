// Shared by the `tooldesk mcp` sub-commands: the settings' server list, and literal secrets
// moved to the keychain before an entry is written (settings never hold a secret's value).
import { KeyringUnavailableError } from '../../runtime/store/secret-store.ts';
import type { SettingsStore } from '../../runtime/store/settings-store.ts';
import { openCliSecrets } from '../cli-settings.ts';
import { UsageError, type CliIO } from '../command.ts';
import { options, type ParsedArgs } from '../parse-args.ts';

/** `--KEY NAME=VALUE` options (repeatable) as a record; `what` names the shape in the error. */
export function keyValueOptions(args: ParsedArgs, key: string, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of options(args, key)) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--${key} "${pair}" must be ${what}`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

export type ServerEntries = Record<string, Record<string, unknown>>;

export const serverEntries = (settings: SettingsStore): ServerEntries => (settings.get().mcpServers ?? {}) as unknown as ServerEntries;

export function writeServers(settings: SettingsStore, servers: ServerEntries): void {
  settings.set('mcpServers', servers as never);
}

/**
 * Stores each secret; resolves false (after saying why) when the keychain cannot take them, so
 * the caller writes nothing rather than a reference to a secret that does not exist.
 */
export async function storeSecrets(io: CliIO, secrets: Array<{ name: string; value: string }>): Promise<boolean> {
  if (secrets.length === 0) return true;
  const store = openCliSecrets(io);
  try {
    for (const secret of secrets) {
      await store.set(secret.name, secret.value);
      io.stderr.write(`stored ${secret.name} in the keychain\n`);
    }
    return true;
  } catch (error) {
    const why = error instanceof KeyringUnavailableError ? error.message : (error as Error).message;
    io.stderr.write(`tooldesk mcp: could not store secrets in the keychain: ${why}\nNothing was written to settings.\n`);
    return false;
  }
}

/**
 * Stores each secret it can, one by one; what could not be stored (no keychain) comes back with
 * the reason, for the caller to name. Import uses it: servers are kept even when secrets are not.
 */
export async function storeSecretsKeeping(io: CliIO, secrets: Array<{ name: string; value: string }>): Promise<{ failed: Array<{ name: string; why: string; noKeychain: boolean }> }> {
  const failed: Array<{ name: string; why: string; noKeychain: boolean }> = [];
  if (secrets.length === 0) return { failed };
  const store = openCliSecrets(io);
  for (const secret of secrets) {
    try {
      await store.set(secret.name, secret.value);
      io.stderr.write(`stored ${secret.name} in the keychain\n`);
    } catch (error) {
      const noKeychain = error instanceof KeyringUnavailableError;
      failed.push({ name: secret.name, why: noKeychain ? 'no keychain on this machine' : (error as Error).message, noKeychain });
    }
  }
  return { failed };
}
