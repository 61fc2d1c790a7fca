// Importing the MCP servers users already configured in other apps: Claude Desktop
// (claude_desktop_config.json), Cursor, LM Studio and Windsurf (`mcpServers`), VS Code (mcp.json,
// `servers`, with `inputs` asked at import), Zed (settings.json, `context_servers`). Literal
// secrets in env/headers move to the keychain; settings get `${secret:NAME}`. Every secret a
// server will receive is listed; a reference outside the server's own `mcp.<server>.*` names
// needs the user's yes per name. A project's config (`.vscode/`, `.cursor/` of the working
// folder) is read only once that folder is trusted, like a project tool folder.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { resolveImportVariables } from './config-variables.ts';
import { parseMcpServer } from './server-config.ts';
import { secretRefs } from './secret-refs.ts';

export interface ConfigLocation {
  app: string;
  path: string;
  /** A config inside a project (the working folder): imported only when its folder is trusted. */
  project?: boolean;
}

/** The usual per-OS places of the apps' MCP configs (which exist is checked by the caller). */
export function knownConfigFiles(platform: NodeJS.Platform, home: string, env: NodeJS.ProcessEnv, cwd: string): ConfigLocation[] {
  const appData = env.APPDATA ?? join(home, 'AppData', 'Roaming');
  const config = env.XDG_CONFIG_HOME ?? join(home, '.config');
  const userDir = platform === 'darwin' ? join(home, 'Library', 'Application Support') : platform === 'win32' ? appData : config;
  const files: ConfigLocation[] = [
    { app: 'Claude Desktop', path: join(userDir, 'Claude', 'claude_desktop_config.json') },
    { app: 'Cursor', path: join(home, '.cursor', 'mcp.json') },
    { app: 'Cursor (project)', path: join(cwd, '.cursor', 'mcp.json'), project: true },
    { app: 'LM Studio', path: join(home, '.lmstudio', 'mcp.json') },
    { app: 'VS Code', path: join(userDir, 'Code', 'User', 'mcp.json') },
    { app: 'VS Code (project)', path: join(cwd, '.vscode', 'mcp.json'), project: true },
    { app: 'Windsurf', path: join(home, '.codeium', 'windsurf', 'mcp_config.json') },
    { app: 'Zed', path: platform === 'win32' ? join(appData, 'Zed', 'settings.json') : join(config, 'zed', 'settings.json') },
  ];
  // With the home as working folder a project's config is the user's own file: listed once, as the user's.
  return files.filter((file, i) => files.findIndex((f) => f.path === file.path) === i);
}

/** A VS Code `inputs` entry a server uses through `${input:ID}`: asked at import. */
export interface ImportQuestion {
  id: string;
  description: string;
  password: boolean;
  /** Where the answer goes: a keychain secret the entry refers to. */
  secret: string;
}

export interface ImportedServer {
  name: string;
  /** The entry as it will be written to settings (secrets replaced by references). */
  entry: Record<string, unknown>;
  /** Literal secrets to store in the keychain before the entry is written. */
  secrets: Array<{ name: string; value: string }>;
  /** Every keychain secret the server will receive (`${secret:NAME}` in env, headers, oauth). */
  references: string[];
  /** The references outside `mcp.<server>.*`: each needs the user's explicit yes. */
  foreign: string[];
  /** VS Code inputs to ask; each answer is stored as `question.secret`. */
  questions: ImportQuestion[];
  /** What could not be resolved at import (a `${…}` variable kept as written). */
  warnings: string[];
  from: string;
}

export interface ImportPlan {
  add: ImportedServer[];
  /** Entries not imported, and why (already configured, broken, untrusted project). */
  skipped: Array<{ name: string; from: string; reason: string }>;
  /** Files that could not be read. */
  problems: string[];
}

export interface ImportOptions {
  /** Whether a project config's folder is trusted (default: none is). */
  isTrusted?: (folder: string) => boolean;
  /** The home `${userHome}` stands for (default: the OS's). */
  home?: string;
}

const SECRET_KEY = /key|token|secret|password|passwd|auth|credential|cookie|session/i;
const REFERENCE = /\$\{[^}]*\}/;
const INPUT = /\$\{input:([^}]+)\}/g;
/** Config files are small; anything bigger is not one (and is not read whole). */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/** The namespace a server's own secrets live in. */
export const ownSecretPrefix = (server: string) => `mcp.${server}.`.replace(/[^A-Za-z0-9_.-]/g, '_');
const ownSecretName = (server: string, key: string) => `mcp.${server}.${key}`.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 128);

interface ConfigFile {
  servers: Record<string, unknown>;
  inputs: Map<string, { description: string; password: boolean }>;
}

/** The server entries of one config file, in the Claude Desktop shape whatever the app. */
export function readConfigFile(path: string): ConfigFile | { error: string } {
  let data: unknown;
  try {
    if (statSync(path).size > MAX_CONFIG_BYTES) return { error: `${path}: larger than ${MAX_CONFIG_BYTES / 1024 / 1024} MB, not an MCP config` };
    // VS Code's and Zed's files may carry comments and trailing commas (JSONC).
    data = JSON.parse(stripJsonc(readFileSync(path, 'utf8')));
  } catch (error) {
    return { error: `${path}: ${(error as Error).message}` };
  }
  const root = (data ?? {}) as Record<string, unknown>;
  const servers = root.mcpServers ?? root.servers ?? root.context_servers;
  if (!servers || typeof servers !== 'object' || Array.isArray(servers)) return { error: `${path}: no "mcpServers", "servers" or "context_servers" object in it` };
  const inputs = new Map<string, { description: string; password: boolean }>();
  for (const input of Array.isArray(root.inputs) ? root.inputs : []) {
    const i = input as Record<string, unknown>;
    if (typeof i?.id === 'string') inputs.set(i.id, { description: typeof i.description === 'string' ? i.description : i.id, password: i.password === true });
  }
  const normalised = Object.fromEntries(Object.entries(servers as Record<string, unknown>).map(([name, raw]) => [name, normaliseEntry(raw)]));
  return { servers: normalised, inputs };
}

/** Windsurf's `serverUrl`, Zed's `{command: {path, args, env}}` and `source`/`settings` fields, in our shape. */
function normaliseEntry(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const { serverUrl, source: _source, settings: _settings, ...entry } = raw as Record<string, unknown>;
  if (typeof serverUrl === 'string' && entry.url === undefined) entry.url = serverUrl;
  const command = entry.command as Record<string, unknown> | undefined;
  if (command && typeof command === 'object' && !Array.isArray(command)) {
    entry.command = command.path;
    if (command.args !== undefined) entry.args = command.args;
    if (command.env !== undefined) entry.env = command.env;
  }
  return entry;
}

export function planImport(files: ConfigLocation[], existing: Record<string, unknown>, options: ImportOptions = {}): ImportPlan {
  const plan: ImportPlan = { add: [], skipped: [], problems: [] };
  const taken = new Set(Object.keys(existing));
  for (const file of files) {
    if (!existsSync(file.path)) continue;
    const read = readConfigFile(file.path);
    if ('error' in read) {
      plan.problems.push(read.error);
      continue;
    }
    const from = `${file.app} (${file.path})`;
    const folder = dirname(file.path);
    if (file.project && !(options.isTrusted?.(folder) ?? false)) {
      const reason = `a project's config, in a folder not trusted yet: review ${file.path}, then \`tooldesk tools trust ${folder}\``;
      for (const name of Object.keys(read.servers)) plan.skipped.push({ name, from, reason });
      continue;
    }
    for (const [name, raw] of Object.entries(read.servers)) {
      if (taken.has(name)) {
        plan.skipped.push({ name, from, reason: 'a server of this name is already configured' });
        continue;
      }
      // A project's config sits in `.vscode/` or `.cursor/`: its workspace is the folder above.
      const variables = raw && typeof raw === 'object' && !Array.isArray(raw) ? resolveImportVariables(raw as Record<string, unknown>, { userHome: options.home ?? homedir(), ...(file.project ? { workspaceFolder: dirname(folder) } : {}) }) : undefined;
      const resolved = variables?.entry ?? raw;
      const parsed = parseMcpServer(name, resolved);
      if ('error' in parsed) {
        plan.skipped.push({ name, from, reason: parsed.error });
        continue;
      }
      const { entry: withInputs, questions } = replaceInputs(name, resolved as Record<string, unknown>, read.inputs);
      const { entry, secrets } = moveSecrets(name, withInputs);
      taken.add(name);
      const references = referencesOf(entry);
      const foreign = references.filter((r) => !r.startsWith(ownSecretPrefix(name)));
      plan.add.push({ name, entry, secrets, references, foreign, questions, warnings: variables?.warnings ?? [], from });
    }
  }
  return plan;
}

/**
 * The server with its VS Code inputs answered (by id): an answer used in env/headers becomes a
 * secret to store; one used in args is written there (args cannot refer to the keychain). An
 * unanswered input stays a reference to a secret not set yet.
 */
export function answerQuestions(server: ImportedServer, answers: Record<string, string>): ImportedServer {
  const answered = server.questions.filter((q) => Object.hasOwn(answers, q.id) && answers[q.id] !== '');
  if (answered.length === 0) return server;
  const entry = { ...server.entry };
  if (Array.isArray(entry.args)) {
    entry.args = entry.args.map((a) => (typeof a === 'string' ? a.replace(INPUT, (whole, id: string) => (answered.some((q) => q.id === id.trim()) ? answers[id.trim()]! : whole)) : a));
  }
  const references = referencesOf(entry);
  const secrets = [...server.secrets, ...answered.filter((q) => references.includes(q.secret)).map((q) => ({ name: q.secret, value: answers[q.id]! }))];
  return { ...server, entry, secrets, references, foreign: references.filter((r) => !r.startsWith(ownSecretPrefix(server.name))) };
}

/** Every `${secret:NAME}` an entry hands its server. */
export function referencesOf(entry: Record<string, unknown>): string[] {
  const values: Record<string, string> = {};
  const add = (prefix: string, record: unknown) => {
    if (!record || typeof record !== 'object') return;
    for (const [k, v] of Object.entries(record)) {
      if (typeof v === 'string') values[`${prefix}${k}`] = v;
      else if (v && typeof v === 'object' && !Array.isArray(v)) add(`${prefix}${k}.`, v);
    }
  };
  add('env.', entry.env);
  add('headers.', entry.headers);
  add('oauth.', entry.oauth);
  return secretRefs(values);
}

/** `${input:ID}` in env/headers → a keychain reference answered at import; in args → the answer itself (asked all the same). */
function replaceInputs(server: string, raw: Record<string, unknown>, inputs: ConfigFile['inputs']): { entry: Record<string, unknown>; questions: ImportQuestion[] } {
  const entry = { ...raw };
  const questions = new Map<string, ImportQuestion>();
  const ask = (id: string): ImportQuestion => {
    const known = inputs.get(id);
    const question = questions.get(id) ?? { id, description: known?.description ?? id, password: known?.password ?? true, secret: ownSecretName(server, id) };
    questions.set(id, question);
    return question;
  };
  for (const field of ['env', 'headers'] as const) {
    const values = entry[field] as Record<string, unknown> | undefined;
    if (!values || typeof values !== 'object') continue;
    entry[field] = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? v.replace(INPUT, (_, id: string) => `\${secret:${ask(id.trim()).secret}}`) : v]));
  }
  // Args cannot refer to the keychain: the placeholder stays until the answer is written in.
  if (Array.isArray(entry.args)) for (const a of entry.args) if (typeof a === 'string') for (const m of a.matchAll(INPUT)) ask(m[1]!.trim());
  return { entry, questions: [...questions.values()] };
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
        const name = ownSecretName(server, key);
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
