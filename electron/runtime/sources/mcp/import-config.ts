// Importing the MCP servers users already configured in other apps: Claude Desktop
// (claude_desktop_config.json), Cursor and LM Studio (mcp.json, `mcpServers`), VS Code (mcp.json,
// `servers`). Literal secrets in env/headers move to the keychain; settings get `${secret:NAME}`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMcpServer } from './server-config.ts';

export interface ConfigLocation {
  app: string;
  path: string;
}

/** The usual per-OS places of the apps' MCP configs (which exist is checked by the caller). */
export function knownConfigFiles(platform: NodeJS.Platform, home: string, env: NodeJS.ProcessEnv, cwd: string): ConfigLocation[] {
  const appData = env.APPDATA ?? join(home, 'AppData', 'Roaming');
  const config = env.XDG_CONFIG_HOME ?? join(home, '.config');
  const userDir = platform === 'darwin' ? join(home, 'Library', 'Application Support') : platform === 'win32' ? appData : config;
  return [
    { app: 'Claude Desktop', path: join(userDir, 'Claude', 'claude_desktop_config.json') },
    { app: 'Cursor', path: join(home, '.cursor', 'mcp.json') },
    { app: 'Cursor (project)', path: join(cwd, '.cursor', 'mcp.json') },
    { app: 'LM Studio', path: join(home, '.lmstudio', 'mcp.json') },
    { app: 'VS Code', path: join(userDir, 'Code', 'User', 'mcp.json') },
    { app: 'VS Code (project)', path: join(cwd, '.vscode', 'mcp.json') },
  ];
}

export interface ImportedServer {
  name: string;
  /** The entry as it will be written to settings (secrets replaced by references). */
  entry: Record<string, unknown>;
  /** Secrets to store in the keychain before the entry is written. */
  secrets: Array<{ name: string; value: string }>;
  from: string;
}

export interface ImportPlan {
  add: ImportedServer[];
  /** Entries not imported, and why (already configured, broken). */
  skipped: Array<{ name: string; from: string; reason: string }>;
  /** Files that could not be read. */
  problems: string[];
}

const SECRET_KEY = /key|token|secret|password|passwd|auth|credential|cookie|session/i;
const REFERENCE = /\$\{[^}]*\}/;

/** The server entries of one config file: `mcpServers` (Claude, Cursor, LM Studio) or `servers` (VS Code). */
export function readConfigFile(path: string): { servers: Record<string, unknown> } | { error: string } {
  let data: unknown;
  try {
    // VS Code's files may carry comments and trailing commas (JSONC).
    data = JSON.parse(stripJsonc(readFileSync(path, 'utf8')));
  } catch (error) {
    return { error: `${path}: ${(error as Error).message}` };
  }
  const root = (data ?? {}) as Record<string, unknown>;
  const servers = root.mcpServers ?? root.servers;
  if (!servers || typeof servers !== 'object' || Array.isArray(servers)) return { error: `${path}: no "mcpServers" or "servers" object in it` };
  return { servers: servers as Record<string, unknown> };
}

export function planImport(files: ConfigLocation[], existing: Record<string, unknown>): ImportPlan {
  const plan: ImportPlan = { add: [], skipped: [], problems: [] };
  const taken = new Set(Object.keys(existing));
  for (const file of files) {
    if (!existsSync(file.path)) continue;
    const read = readConfigFile(file.path);
    if ('error' in read) {
      plan.problems.push(read.error);
      continue;
    }
    for (const [name, raw] of Object.entries(read.servers)) {
      const from = `${file.app} (${file.path})`;
      if (taken.has(name)) {
        plan.skipped.push({ name, from, reason: 'a server of this name is already configured' });
        continue;
      }
      const parsed = parseMcpServer(name, raw);
      if ('error' in parsed) {
        plan.skipped.push({ name, from, reason: parsed.error });
        continue;
      }
      const { entry, secrets } = moveSecrets(name, raw as Record<string, unknown>);
      taken.add(name);
      plan.add.push({ name, entry, secrets, from });
    }
  }
  return plan;
}

/**
 * The entry with literal secrets in `env`/`headers` (by key name, or a Bearer/Basic value)
 * replaced by `${secret:mcp.SERVER.KEY}` references, and the values to store under those names.
 */
export function moveSecrets(server: string, raw: Record<string, unknown>): { entry: Record<string, unknown>; secrets: Array<{ name: string; value: string }> } {
  const entry = { ...raw };
  const secrets: Array<{ name: string; value: string }> = [];
  for (const field of ['env', 'headers'] as const) {
    const values = entry[field] as Record<string, string> | undefined;
    if (!values || typeof values !== 'object') continue;
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(values)) {
      if (typeof value === 'string' && value !== '' && !REFERENCE.test(value) && (SECRET_KEY.test(key) || /^(bearer|basic) /i.test(value))) {
        const name = `mcp.${server}.${key}`.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 128);
        secrets.push({ name, value });
        out[key] = `\${secret:${name}}`;
      } else out[key] = value;
    }
    entry[field] = out;
  }
  return { entry, secrets };
}

/** Comments and trailing commas out, strings left alone. */
function stripJsonc(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2);
      if (i === -1) break;
      i++;
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}
