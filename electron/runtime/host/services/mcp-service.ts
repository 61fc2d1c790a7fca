// Settings → MCP servers over the runtime: the configured servers with their live state, add,
// remove, restart and import. Servers live in settings.mcpServers (the manager follows the
// settings), so every change here is a settings write the CLI would make too.
import { homedir } from 'node:os';
import { apiError } from '../../../../shared/api.ts';
import type { McpServerView } from '../../../../shared/mcp.ts';
import { Emitter } from '../../base/emitter.ts';
import { answerQuestions, entryEnvRefs, knownConfigFiles, parseMcpServer, parseMcpServers, planImport, type McpManager, type McpServer } from '../../sources/mcp/index.ts';
import { isTrustedProjectFolder } from '../../sources/discovery/tool-roots.ts';
import { checkPromptArgs, getPromptTurn, listPrompts } from '../../sources/mcp/mapping/server-prompts.ts';
import { listResources, readResourceAttachment } from '../../sources/mcp/mapping/server-resources.ts';
import type { McpConnection } from '../../sources/mcp/connection/server-connection.ts';
import type { McpListing } from '../../../../shared/mcp.ts';
import { parsePromptCommand } from '../../../../shared/prompt-command.ts';
import { sandboxSummary } from '../../sources/mcp/config/sandbox-summary.ts';
import { entryAllowingWrite } from '../../sources/mcp/config/allow-write.ts';
import { argFolders, writableFolders } from '../../sources/mcp/config/launchers.ts';
import { serverRoots } from '../../sources/mcp/connection/server-roots.ts';
import { missingSecretsOf } from '../../sources/mcp/config/secret-missing.ts';
import type { SettingsStore } from '../../store/settings-store.ts';
import type { McpService, SecretService } from './services.ts';
import { switchedOffTools } from '../../../../shared/mcp-tool-count.ts';

export type { McpService } from './services.ts';

export interface McpServiceParts {
  settings: SettingsStore;
  secrets: Pick<SecretService, 'set'>;
  /** Absent when the runtime runs without MCP: rows then show the configuration only. */
  manager?: McpManager;
  /** Where other apps' configs are looked for (tests pass a temp home). */
  home?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

type Entries = Record<string, Record<string, unknown>>;

const invalid = (message: string) => apiError('InvalidRequestError', message);
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

export function createMcpService(parts: McpServiceParts): McpService {
  const { settings, manager } = parts;
  const entries = (): Entries => (settings.get().mcpServers ?? {}) as unknown as Entries;
  const write = (next: Entries) => settings.set('mcpServers', next as never);

  const list = (): McpServerView[] => {
    const current = settings.get();
    const states = new Map((manager?.states() ?? []).map((s) => [s.name, s]));
    const { servers, diagnostics } = parseMcpServers(current.mcpServers);
    const rows: McpServerView[] = servers.map((server) => {
      const state = states.get(server.name);
      const enabled = current.groupDefaults[server.name] === true;
      return {
        name: server.name,
        enabled,
        // A switched-off server is stopped; the row says why (its switch), not just "stopped".
        status: !enabled ? 'disabled' : (state?.status ?? 'stopped'),
        transport: server.kind,
        target: targetOf(server),
        tools: state?.tools ?? 0,
        ...(state ? { appOnlyTools: state.appOnlyTools, switchedOffTools: switchedOffTools(current.toolDefaults, server.name), offered: state.offered } : {}),
        ...(state?.detail ? { detail: state.detail } : {}),
        sandbox: sandboxSummary(server, current.sandbox.mode, state?.sandboxed),
        trusted: server.trust,
        restarts: state?.restarts ?? 0,
        ...folderView(server),
        ...(state?.writeRefusal ? { writeRefusal: state.writeRefusal } : {}),
        ...(state?.startTimeline ? { startTimeline: state.startTimeline } : {}),
        ...secretMissingView(entries()[server.name]),
      };
    });
    // Broken entries stay visible (and removable) with what is wrong.
    for (const d of diagnostics) {
      const name = d.file.startsWith('mcpServers.') ? d.file.slice('mcpServers.'.length) : undefined;
      if (!name || rows.some((r) => r.name === name)) continue;
      rows.push({ name, enabled: false, status: 'failed', transport: 'stdio', target: '', tools: 0, sandbox: '', trusted: false, restarts: 0, problem: d.message });
    }
    return rows.sort((a, b) => a.name.localeCompare(b.name));
  };

  const changed = new Emitter<McpServerView[]>();
  let lastKey = '';
  const announce = () => {
    const rows = list();
    const key = JSON.stringify(rows);
    if (key === lastKey) return;
    lastKey = key;
    changed.fire(rows);
  };
  const disposers = [manager?.onChanged(announce), settings.onDidChange(announce)];

  const plan = () => {
    const cwd = settings.get().workingDir ?? parts.home ?? homedir();
    const home = parts.home ?? homedir();
    const files = knownConfigFiles(parts.platform ?? process.platform, home, parts.env ?? process.env, cwd);
    return { files, plan: planImport(files, entries(), { home, isTrusted: (folder) => isTrustedProjectFolder(settings.get(), folder) }) };
  };

  /** From every switched-on server at once; a server that fails is named, the others still count. */
  const gather = async <T>(from: (c: McpConnection) => Promise<T[] | { error: string }>): Promise<McpListing<T>> => {
    const answers = await Promise.all((manager?.active() ?? []).map(from));
    return { items: answers.flatMap((a) => ('error' in a ? [] : a)), problems: answers.flatMap((a) => ('error' in a ? [a.error] : [])) };
  };
  /** A server prompts or resources may come from now: configured, enabled, switched on. */
  const activeServer = (name: string, what: string): McpConnection => {
    if (!manager) throw invalid('MCP servers are not running in this process');
    const connection = manager.connection(name);
    if (!connection) throw apiError('NotFoundError', `no MCP server named "${name}"`);
    if (!connection.server.enabled || !connection.wanted) throw invalid(`MCP server "${name}" is switched off: switch it on (Tools, or Settings → MCP servers) to use its ${what}`);
    return connection;
  };

  return {
    list,
    prompts: () => gather(listPrompts),
    async promptTurn(text, signal) {
      const command = parsePromptCommand(text);
      // Only a configured server's name makes `/x:y` a prompt; other text goes to the model as typed.
      const server = command && 'server' in command ? command.server : /^\/([^\s:/{]+):/.exec(text.trim())?.[1];
      if (!command || !server || !manager?.connection(server)) return null;
      if ('error' in command) throw invalid(`${text.trim().split(/\s/)[0]}: ${command.error}`);
      const connection = activeServer(server, 'prompts');
      const listed = await listPrompts(connection);
      if ('error' in listed) throw apiError('McpError', listed.error);
      const prompt = listed.find((p) => p.name === command.prompt);
      if (!prompt) {
        const names = listed.map((p) => `/${p.command}`).join(', ') || 'none';
        throw apiError('NotFoundError', `MCP server "${server}" has no prompt "${command.prompt}" (its prompts: ${names})`);
      }
      const problem = checkPromptArgs(prompt, command.args);
      if (problem) throw invalid(problem);
      const turn = await getPromptTurn(connection, prompt, command.args, signal);
      if ('error' in turn) throw apiError('McpError', turn.error);
      return turn;
    },
    resources: () => gather(listResources),
    async readResource(server, uri) {
      const read = await readResourceAttachment(activeServer(server, 'resources'), uri);
      if ('error' in read) throw apiError('McpError', read.error);
      return read;
    },
    async add({ name, command, args, url }) {
      // The name prefixes every tool name (NAME__tool) and names the group: keep it plain.
      if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)) throw invalid(`"${name}" cannot be a server name: use letters, digits, "_", "-" or "." (up to 64), starting with a letter or digit`);
      if (entries()[name]) throw invalid(`a server named "${name}" already exists: remove it first, or pick another name`);
      if ((command === undefined) === (url === undefined)) throw invalid('give either a command (a local server) or a URL (a remote server)');
      if (args !== undefined && !isStringList(args)) throw invalid('args must be a list of strings');
      const entry: Record<string, unknown> = command !== undefined ? { command, ...(args?.length ? { args } : {}) } : { url };
      const parsed = parseMcpServer(name, entry);
      if ('error' in parsed) throw invalid(parsed.error);
      write({ ...entries(), [name]: entry });
      return list();
    },
    async remove(name) {
      const { [name]: removed, ...rest } = entries();
      if (!removed) throw apiError('NotFoundError', `no MCP server named "${name}"`);
      write(rest);
      const { groupDefaults } = settings.get();
      if (name in groupDefaults) {
        const { [name]: _switch, ...others } = groupDefaults;
        settings.set('groupDefaults', others);
      }
      return list();
    },
    async restart(name) {
      if (!entries()[name]) throw apiError('NotFoundError', `no MCP server named "${name}"`);
      const connection = manager?.connection(name);
      if (!connection) throw invalid('MCP servers are not running in this process');
      if (settings.get().groupDefaults[name] !== true) throw invalid(`"${name}" is switched off: switch it on to start it`);
      await connection.restart();
      return list();
    },
    async allowWrite(name, folder) {
      const entry = entries()[name];
      if (!entry) throw apiError('NotFoundError', `no MCP server named "${name}"`);
      const next = entryAllowingWrite(entry, folder, { home: parts.home ?? homedir(), ...(manager ? { isProtected: (path: string) => manager.isProtected(path) } : {}) });
      if ('error' in next) throw invalid(`"${name}": ${next.error}`);
      if (next.added.length) write({ ...entries(), [name]: next.entry });
      return list();
    },
    async setArgFoldersWritable(name, writable) {
      const entry = entries()[name];
      if (!entry) throw apiError('NotFoundError', `no MCP server named "${name}"`);
      const { writeArgFolders: _old, ...rest } = entry;
      write({ ...entries(), [name]: writable ? rest : { ...rest, writeArgFolders: false } });
      return list();
    },
    previewImport() {
      const { files, plan: p } = plan();
      return {
        add: p.add.map((s) => ({ name: s.name, from: s.from, target: entryTarget(s.entry), secrets: s.secrets.map((x) => x.name), references: s.references, foreign: s.foreign, questions: s.questions, ...optionalList('warnings', s.warnings), ...optionalList('fromEnvironment', entryEnvRefs(s.entry)) })),
        skipped: p.skipped,
        problems: p.problems,
        searched: files.map((f) => `${f.app}: ${f.path}`),
      };
    },
    async importServers(names, answers = {}, allowSecrets = []) {
      if (!isStringList(names)) throw invalid('names must be a list of server names');
      const planned = plan().plan.add.filter((s) => names.includes(s.name));
      const missing = names.filter((n) => !planned.some((s) => s.name === n));
      if (missing.length) throw apiError('NotFoundError', `not in the import any more: ${missing.join(', ')} (look again with Import)`);
      const chosen = planned.map((s) => answerQuestions(s, Object.fromEntries(s.questions.filter((q) => Object.hasOwn(answers, q.secret)).map((q) => [q.id, answers[q.secret]!]))));
      // A secret outside the server's own names is given only with the user's yes, per name.
      for (const server of chosen) {
        const refused = server.foreign.filter((name) => !allowSecrets.includes(name));
        if (refused.length) throw invalid(`"${server.name}" would receive keychain secret ${refused.join(', ')}, which is not one of its own (mcp.${server.name}.*): allow it to import "${server.name}", or leave "${server.name}" out`);
      }
      // Secrets first: a reference to a secret that was never stored would be worse than nothing.
      for (const server of chosen) for (const secret of server.secrets) await parts.secrets.set(secret.name, secret.value);
      write({ ...entries(), ...Object.fromEntries(chosen.map((s) => [s.name, s.entry])) });
      return list();
    },
    onChanged: (listener) => changed.event(listener),
    close() {
      for (const d of disposers) d?.();
      changed.dispose();
    },
  };
}

/** The folders a row shows: roots, writable ones, the ones its arguments name. */
function folderView(server: McpServer): Pick<McpServerView, 'roots' | 'writable' | 'argFolders'> {
  const roots = serverRoots(server);
  if (server.kind !== 'stdio') return roots.length ? { roots } : {};
  const { folders } = writableFolders(server);
  const named = argFolders(server.args);
  return { roots, writable: server.sandbox === 'off' ? [] : folders, ...(named.length || !server.writeArgFolders ? { argFolders: { folders: named, writable: server.writeArgFolders } } : {}) };
}

function secretMissingView(entry: Record<string, unknown> | undefined): Pick<McpServerView, 'secretMissing'> {
  const missing = missingSecretsOf(entry);
  return missing.length ? { secretMissing: missing } : {};
}

function targetOf(server: McpServer): string {
  return server.kind === 'stdio' ? [server.command, ...server.args].join(' ') : server.url;
}

function entryTarget(entry: Record<string, unknown>): string {
  if (typeof entry.url === 'string') return entry.url;
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  return [String(entry.command ?? ''), ...args].join(' ');
}

/** `{[key]: list}` when the list has items, else nothing: an empty list says nothing to show. */
function optionalList<K extends string>(key: K, list: string[]): { [k in K]?: string[] } {
  return (list.length ? { [key]: list } : {}) as { [k in K]?: string[] };
}
