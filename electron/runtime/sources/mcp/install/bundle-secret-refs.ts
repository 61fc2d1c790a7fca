// A `.mcpb` manifest that names a keychain secret (`mcp_config.env: {"X": "${secret:NAME}"}`, or
// a user_config default that does) never gets it: each such reference becomes a sensitive,
// required user_config field the user types at install, which the install keeps in the keychain
// under the server's own name (mcpb-bundle.ts), like any sensitive field. Pure: the manifest in,
// the rewritten manifest and the new fields out; `secretRef` keeps the name the bundle gave, so
// the install refuses a bundle that names a secret the user has.
import { secretRefsIn } from '../config/secret-refs.ts';

export interface SecretRefField {
  /** The user_config key the reference now reads (`${user_config.KEY}`). */
  key: string;
  /** The secret name the bundle gave. */
  secretRef: string;
}

const REF = /\$\{secret:([^}]*)\}/g;

/** The manifest with its secret references turned into user_config fields, and those fields. */
export function bundleSecretRefs(manifest: Record<string, unknown>): { manifest: Record<string, unknown>; fields: SecretRefField[] } {
  const userConfig = (manifest.user_config ?? {}) as Record<string, Record<string, unknown>>;
  const names = secretRefsIn(JSON.stringify([manifest.server ?? null, userConfig]));
  if (names.length === 0) return { manifest, fields: [] };
  const taken = new Set(Object.keys(userConfig));
  const fields = names.map((secretRef): SecretRefField => {
    // The mcpb library builds a RegExp from the key: letters, digits and "_" only.
    let key = secretRef.replace(/[^A-Za-z0-9_]/g, '_') || 'secret';
    while (taken.has(key)) key = `${key}_secret`;
    taken.add(key);
    return { key, secretRef };
  });
  const keyOf = new Map(fields.map((f) => [f.secretRef, f.key]));
  const rewrite = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(REF, (_, name: string) => `\${user_config.${keyOf.get(name.trim())!}}`);
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]));
    return value;
  };
  const rewritten: Record<string, Record<string, unknown>> = {};
  for (const [key, field] of Object.entries(userConfig)) rewritten[key] = field && typeof field === 'object' && 'default' in field ? { ...field, default: rewrite(field.default) } : field;
  for (const { key, secretRef } of fields) {
    rewritten[key] = {
      type: 'string',
      title: secretRef,
      description: `The bundle names your keychain secret "${secretRef}"; Tooldesk never reads a secret for a bundle: type the value (kept in the keychain for this server only).`,
      required: true,
      sensitive: true,
    };
  }
  return { manifest: { ...manifest, server: rewrite(manifest.server), user_config: rewritten }, fields };
}
