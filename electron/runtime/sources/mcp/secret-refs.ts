// `${secret:NAME}` references in a server's env and headers, resolved from the keychain when the
// server starts. The settings only ever hold the reference; the value lives in the keychain.
import { missingSecretsMessage } from '../../runner/secret-resolver.ts';
import type { SecretResolver } from '../../runner/types.ts';

const REF = /\$\{secret:([^}]*)\}/g;

/** The secret names a set of values refers to. */
export function secretRefs(values: Record<string, string>): string[] {
  const names = new Set<string>();
  for (const value of Object.values(values)) for (const match of value.matchAll(REF)) names.add(match[1]!.trim());
  return [...names];
}

/**
 * Replaces every reference with its value. Resolves with `{error}` naming the missing secrets
 * (and how to set them) rather than starting a server with an empty credential.
 */
export async function resolveSecretRefs(
  values: Record<string, string>,
  resolve: SecretResolver,
): Promise<{ values: Record<string, string>; secrets: string[] } | { error: string }> {
  const names = secretRefs(values);
  if (names.length === 0) return { values, secrets: [] };
  const found = await resolve(names);
  if (found.missing.length > 0) {
    return { error: missingSecretsMessage(found.missing, found.noKeychain) };
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) out[key] = value.replace(REF, (_, name: string) => found.values[name.trim()] ?? '');
  return { values: out, secrets: Object.values(found.values) };
}
