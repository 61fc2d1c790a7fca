// The "secret missing" mark: a server imported without its secrets (`mcp import --skip-secrets`)
// keeps the names of the keychain secrets it refers to but that were never stored, on its own
// settings entry (`secretMissing`). `mcp list` and its Settings row say what to do; storing the
// secret (CLI `secrets set`, the row's field, any API that sets a secret) clears it.

type Entries = Record<string, Record<string, unknown>>;

/** The secrets an entry is marked as missing (none when unmarked or malformed). */
export function missingSecretsOf(entry: Record<string, unknown> | undefined): string[] {
  const marked = entry?.secretMissing;
  return Array.isArray(marked) ? marked.filter((n): n is string => typeof n === 'string') : [];
}

/** The entry marked with `names` (added to any mark it has); unchanged when `names` is empty. */
export function markSecretsMissing(entry: Record<string, unknown>, names: string[]): Record<string, unknown> {
  if (names.length === 0) return entry;
  return { ...entry, secretMissing: [...new Set([...missingSecretsOf(entry), ...names])] };
}

/**
 * The servers with `secret` taken off every mark (a mark left empty is removed), or null when no
 * server was marked with it, so the caller writes settings only when something changed.
 */
export function clearSecretMissing(servers: Entries, secret: string): Entries | null {
  let changed = false;
  const next: Entries = {};
  for (const [name, entry] of Object.entries(servers)) {
    const marked = missingSecretsOf(entry);
    if (!marked.includes(secret)) {
      next[name] = entry;
      continue;
    }
    changed = true;
    const left = marked.filter((n) => n !== secret);
    const { secretMissing: _old, ...rest } = entry;
    next[name] = left.length ? { ...rest, secretMissing: left } : rest;
  }
  return changed ? next : null;
}

/** The part of the settings store the mark needs (CLI and host pass the real store). */
export interface McpServersSettings {
  get(): { mcpServers: unknown };
  set(key: 'mcpServers', value: never): void;
}

/** Clears `secret` off every server's mark in settings, writing only when one had it. */
export function secretStored(settings: McpServersSettings, secret: string): void {
  const next = clearSecretMissing((settings.get().mcpServers ?? {}) as Entries, secret);
  if (next) settings.set('mcpServers', next as never);
}
