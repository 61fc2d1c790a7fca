// The `${…}` variables of VS Code's and Cursor's MCP configs. Folders are resolved at import
// (`${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}`, `${/}`),
// so settings hold real paths a user can read; `${env:NAME}` stays a reference, resolved from the
// app's environment each time the server starts, so no environment value is ever written into the
// settings. `${input:…}` (answered at import) and `${secret:…}` (the keychain) are left to their
// own code. Anything else (`${config:…}`, `${command:…}`, `${file}`) cannot be resolved here: it
// is kept as written and named in a warning.
import { basename, sep } from 'node:path';
import type { SecretScope } from './secret-refs.ts';

const VARIABLE = /\$\{([^}]*)\}/g;
const ENV = /\$\{env:([^}]*)\}/g;
const LEFT_FOR_LATER = /^(env|input|secret):/;

export interface ImportFolders {
  /** The folder holding the project's config (`.vscode/`'s parent); absent for a user-level config. */
  workspaceFolder?: string;
  userHome: string;
}

/** A config entry with its folder variables resolved, and what could not be. */
export function resolveImportVariables(entry: Record<string, unknown>, folders: ImportFolders): { entry: Record<string, unknown>; warnings: string[] } {
  const unresolved = new Set<string>();
  const resolve = (text: string): string =>
    text.replace(VARIABLE, (whole, name: string) => {
      const value = folderVariable(name.trim(), folders);
      if (value !== undefined) return value;
      if (!LEFT_FOR_LATER.test(name.trim())) unresolved.add(whole);
      return whole;
    });
  const out: Record<string, unknown> = { ...entry };
  for (const key of ['command', 'cwd', 'url'] as const) if (typeof out[key] === 'string') out[key] = resolve(out[key] as string);
  if (Array.isArray(out.args)) out.args = out.args.map((a) => (typeof a === 'string' ? resolve(a) : a));
  for (const key of ['env', 'headers'] as const) {
    const values = out[key];
    if (values && typeof values === 'object' && !Array.isArray(values)) {
      out[key] = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? resolve(v) : v]));
    }
  }
  const warnings = [...unresolved].map((v) =>
    v === '${workspaceFolder}' || v === '${workspaceFolderBasename}'
      ? `${v} is kept as written: a user-level config has no workspace folder (use a real path, or import the project's own .vscode/mcp.json)`
      : `${v} is kept as written: Tooldesk cannot resolve it (use a real value)`,
  );
  return { entry: out, warnings };
}

function folderVariable(name: string, folders: ImportFolders): string | undefined {
  switch (name) {
    case 'userHome':
      return folders.userHome;
    case 'workspaceFolder':
      return folders.workspaceFolder;
    case 'workspaceFolderBasename':
      return folders.workspaceFolder === undefined ? undefined : basename(folders.workspaceFolder);
    case 'pathSeparator':
    case '/':
      return sep;
    default:
      return undefined;
  }
}

/** The `${env:NAME}` names in some values. */
export function envRefs(values: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const value of values) for (const match of value.matchAll(ENV)) names.add(match[1]!.trim());
  return [...names];
}

/** The `${env:NAME}` names a config entry reads when its server starts. */
export function entryEnvRefs(entry: Record<string, unknown>): string[] {
  const texts: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string') texts.push(v);
    else if (Array.isArray(v)) v.forEach(add);
    else if (v && typeof v === 'object') Object.values(v).forEach(add);
  };
  for (const key of ['command', 'args', 'cwd', 'url', 'env', 'headers']) add(entry[key]);
  return envRefs(texts);
}

/**
 * Every `${env:NAME}` replaced from `env`. A variable that is not set is an error naming it (a
 * server started with an empty token fails later and less clearly). A server whose settings came
 * from a registry entry or a bundle (`scope`) reads no variable by name: the environment holds
 * the user's own credentials (AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN …), as the keychain does.
 */
export function resolveEnvRefs<T extends string | string[] | Record<string, string>>(value: T, env: NodeJS.ProcessEnv, scope?: SecretScope): { value: T } | { error: string } {
  const texts = typeof value === 'string' ? [value] : Array.isArray(value) ? value : Object.values(value);
  const named = envRefs(texts);
  if (scope && named.length > 0) {
    return {
      error: `its settings came from ${scope.origin === 'registry' ? 'a registry entry' : 'a bundle'}, which may not read your environment by name (${named.map((n) => `\${env:${n}}`).join(', ')}): install it again to type the value, or write it into its settings yourself`,
    };
  }
  const missing = envRefs(texts).filter((name) => env[name] === undefined);
  if (missing.length > 0) {
    const list = missing.map((n) => `$${n}`).join(', ');
    return { error: `the environment variable${missing.length === 1 ? '' : 's'} ${list} ${missing.length === 1 ? 'is' : 'are'} not set (the server's config refers to ${missing.map((n) => `\${env:${n}}`).join(', ')}): export ${missing.length === 1 ? 'it' : 'them'} before starting Tooldesk, or write the value into the config` };
  }
  const one = (text: string) => text.replace(ENV, (_, name: string) => env[name.trim()] ?? '');
  const out = typeof value === 'string' ? one(value) : Array.isArray(value) ? value.map(one) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, one(v)]));
  return { value: out as T };
}

/** Values of several fields in one record (one pass resolves them all), and back. */
export function prefixed(prefix: string, values: string[] | Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [`${prefix}${k}`, v]));
}

export function unprefixed(prefix: string, values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]));
}
