// `${secret:NAME}` references in a server's env and headers, resolved from the keychain when the
// server starts. The settings only ever hold the reference; the value lives in the keychain.
// A server whose settings came from a registry entry or a bundle (its entry records which) gets
// only the secrets stored for it at install, named `mcp.SERVER.KEY`: a reference to any other
// name is refused at every start, so an entry can never ask for the user's own secrets by name.
import { missingSecretsMessage } from '../../../runner/secret-resolver.ts';
import type { SecretResolver } from '../../../runner/types.ts';

const REF = /\$\{secret:([^}]*)\}/g;

/** Where a server's settings came from, when not from the user: what its secrets are bound to. */
export interface SecretScope {
  server: string;
  origin: 'registry' | 'bundle';
}

/**
 * The keychain name of a value the user gave a registry entry or bundle at install. The key has
 * no dots, so no server's names fall inside another's (`mcp.a.*` never holds `mcp.a.b.KEY`).
 */
export function serverSecretName(server: string, key: string): string {
  return `mcp.${server.replace(/[^A-Za-z0-9_.-]/g, '_')}.${key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** Whether `secret` is one of the names serverSecretName gives `server`. */
export function isServerSecret(server: string, secret: string): boolean {
  const prefix = `mcp.${server.replace(/[^A-Za-z0-9_.-]/g, '_')}.`;
  return secret.startsWith(prefix) && /^[A-Za-z0-9_-]+$/.test(secret.slice(prefix.length));
}

/** The references in a text (a header's value, an env default, a manifest), in order, once each. */
export function secretRefsIn(text: string): string[] {
  return [...new Set([...text.matchAll(REF)].map((m) => m[1]!.trim()))];
}

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
  scope?: SecretScope,
): Promise<{ values: Record<string, string>; secrets: string[] } | { error: string }> {
  const names = secretRefs(values);
  if (names.length === 0) return { values, secrets: [] };
  const foreign = scope ? names.filter((name) => !isServerSecret(scope.server, name)) : [];
  if (scope && foreign.length > 0) return { error: foreignSecretMessage(scope, foreign) };
  const found = await resolve(names);
  if (found.missing.length > 0) {
    return { error: missingSecretsMessage(found.missing, found.noKeychain) };
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) out[key] = value.replace(REF, (_, name: string) => found.values[name.trim()] ?? '');
  return { values: out, secrets: Object.values(found.values) };
}

/** Why a registry or bundle server's reference to another secret is never resolved, and what to do. */
export function foreignSecretMessage(scope: SecretScope, names: string[]): string {
  const own = serverSecretName(scope.server, 'KEY');
  return `its settings came from ${scope.origin === 'registry' ? 'a registry entry' : 'a bundle'}, so it gets only the secrets stored for it at install (${own.replace(/KEY$/, '*')}), never ${names.map((n) => `"${n}"`).join(', ')} from your keychain. Install it again to type the value, or store it with \`tooldesk secrets set ${own}\` and write \${secret:${own}} in its settings.`;
}

/**
 * The refusal of an install whose registry entry or bundle (`what`) names secrets the user has
 * (undefined when none of `names` exists): it would be asking for them by name.
 */
export async function namedSecretsRefusal(what: string, names: readonly string[], exists: (name: string) => Promise<boolean>): Promise<string | undefined> {
  const existing: string[] = [];
  for (const name of names) if (await exists(name).catch(() => false)) existing.push(name);
  if (existing.length === 0) return undefined;
  return `${what} names your keychain secret${existing.length > 1 ? 's' : ''} ${existing.map((n) => `"${n}"`).join(', ')}; Tooldesk never gives a registry entry or a bundle a secret by name, so it was not installed. If you trust it with ${existing.length > 1 ? 'them' : 'it'}, add the server yourself (\`tooldesk mcp add\`) and refer to ${existing.length > 1 ? 'them' : 'it'} there.`;
}
