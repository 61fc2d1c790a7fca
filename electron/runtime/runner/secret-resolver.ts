// Where the runner gets the values of the secrets a tool declared: the keychain (store/secret-store.ts)
// in the app and CLI, a plain map in tests. Where the user has no keychain (a headless machine, a
// container), a secret may come from the environment Tooldesk was started with instead:
// `TOOLDESK_SECRET_<NAME>` (upper case, other characters as `_`), which the user exports.
import { secretEnvName } from '../../../shared/secret-env-name.ts';
import type { SecretResolver } from './types.ts';

/** What the runner needs from a secret store (SecretStore satisfies it). */
export interface SecretSource {
  get(name: string): Promise<string | null>;
}


/**
 * Resolves names one by one: the keychain first, then (when `env` is given) the name's
 * `TOOLDESK_SECRET_…` variable. A name with no value anywhere, or whose lookup fails (no keyring,
 * invalid name), is reported missing so the call fails before anything runs.
 */
export function secretResolverFrom(source: SecretSource, env?: NodeJS.ProcessEnv): SecretResolver {
  return async (names) => {
    const values: Record<string, string> = {};
    const missing: string[] = [];
    let noKeychain = false;
    for (const name of [...new Set(names)]) {
      let value: string | null = null;
      try {
        value = await source.get(name);
      } catch (error) {
        if ((error as Error)?.name === 'KeyringUnavailableError') noKeychain = true;
      }
      value ||= env?.[secretEnvName(name)] ?? null;
      if (value) values[name] = value;
      else missing.push(name);
    }
    return { values, missing, ...(noKeychain ? { noKeychain } : {}) };
  };
}

/** For tests and one-off runs: values from a plain object. */
export function mapSecretResolver(map: Record<string, string>): SecretResolver {
  return secretResolverFrom({ get: async (name) => (Object.hasOwn(map, name) ? map[name]! : null) });
}

/** The message a user sees when a declared secret has no value (without a keychain: the variable to export). */
export function missingSecretsMessage(missing: string[], noKeychain = false): string {
  const names = missing.join(', ');
  const example = missing[0] ?? 'NAME';
  if (noKeychain) {
    return `missing secret${missing.length > 1 ? 's' : ''}: ${names}. This machine has no keychain: export ${missing.map((n) => `${secretEnvName(n)}=…`).join(' ')} in the environment Tooldesk starts from (or unlock a Secret Service such as gnome-keyring and run \`tooldesk secrets set ${example}\`).`;
  }
  return `missing secret${missing.length > 1 ? 's' : ''}: ${names}. Set ${missing.length > 1 ? 'them' : 'it'} in Settings → Secrets, or run \`tooldesk secrets set ${example}\`.`;
}
