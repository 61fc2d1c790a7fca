// Every configured MCP server as a connection and a tool group. The settings say which servers
// exist (`mcpServers`) and which groups are on (`groupDefaults`): a server starts when its group
// is switched on (with `autoStart: false`, when first used), and stops when the group is switched
// off, the server is removed, or the app quits. A switched-off server is never started by
// anything; its group lists the tools it had the last time it ran, marked off, and calling one
// says how to switch the server on.
import type { Diagnostic } from '../../../../shared/tools.ts';
import type { ToolGroup } from '../../tools/types.ts';
import { McpConnection } from './connection/server-connection.ts';
import { knownToolsFile, readKnownTools } from './mapping/known-tools.ts';
import { serverRelativeTo } from './connection/server-roots.ts';
import { serverGroup } from './mapping/server-group.ts';
import { parseMcpServers, type McpServer } from './config/server-config.ts';
import type { McpClientDeps, McpServerStateInfo } from './types.ts';

/** What a composition root needs: groups for the registry, diagnostics, change events. */
export interface McpGroupSource {
  groups(): ToolGroup[];
  diagnostics(): Diagnostic[];
  /** Contract: the listener runs (asynchronously, coalesced) after groups, tools or states changed; returns a disposer. */
  onChanged(listener: () => void): () => void;
  close(): Promise<void>;
}

export class McpManager implements McpGroupSource {
  readonly #deps: McpClientDeps;
  readonly #connections = new Map<string, McpConnection>();
  readonly #listeners = new Set<() => void>();
  #configDiagnostics: Diagnostic[] = [];
  #groups: ToolGroup[] | undefined;
  #pending = false;
  #closed = false;
  readonly #autoStart: boolean;

  /**
   * `autoStart` false: a switched-on server is started only when something uses it (a call,
   * startAll) — a one-shot command that needs one server leaves the others alone.
   */
  constructor(deps: McpClientDeps, options: { autoStart?: boolean } = {}) {
    this.#deps = deps;
    this.#autoStart = options.autoStart ?? true;
  }

  /** Paths no server may be offered to write (TOOLDESK_HOME, tool roots): see McpClientDeps.isProtected. */
  isProtected(path: string): boolean {
    return this.#deps.isProtected?.(path) ?? false;
  }

  /**
   * Applies `mcpServers` and the group switches. A server whose entry changed is restarted;
   * a removed one is stopped. Resolves once removed/changed servers have stopped.
   */
  async configure(rawServers: unknown, groupDefaults: Record<string, boolean>): Promise<void> {
    if (this.#closed) return;
    const { servers, diagnostics } = parseMcpServers(rawServers);
    this.#configDiagnostics = diagnostics;
    const wanted = new Map(servers.map((s) => [s.name, s]));
    const stopping: Promise<void>[] = [];
    for (const [name, connection] of this.#connections) {
      const next = wanted.get(name);
      if (!next || JSON.stringify(next) !== JSON.stringify(connection.server)) {
        this.#connections.delete(name);
        stopping.push(connection.stop());
      }
    }
    for (const server of servers) {
      if (!this.#connections.has(server.name)) this.#connections.set(server.name, this.#connect(server));
    }
    await Promise.all(stopping);
    for (const [name, connection] of this.#connections) connection.setWanted(groupDefaults[name] === true, this.#autoStart);
    this.#emit();
  }

  connection(name: string): McpConnection | undefined {
    return this.#connections.get(name);
  }

  /** Servers enabled in settings whose group is switched on: the ones prompts and resources come from. */
  active(): McpConnection[] {
    return [...this.#connections.values()].filter((c) => c.server.enabled && c.wanted);
  }

  states(): McpServerStateInfo[] {
    return [...this.#connections.values()].map((c) => c.state());
  }

  /** Starts the named servers (all switched-on ones by default; switched-off ones never) and waits for each to be ready or failed. */
  async startAll(names?: string[]): Promise<void> {
    const targets = [...this.#connections.values()].filter((c) => c.server.enabled && c.wanted && (!names || names.includes(c.name)));
    await Promise.all(targets.map((c) => c.ensureStarted()));
  }

  /**
   * Waits until no change was reported for `quietMs` (at most `maxMs`): servers that register
   * tools after initialize (list_changed) have then been heard. For one-shot commands.
   */
  async settle(quietMs = 300, maxMs = 2000): Promise<void> {
    const listens = [...this.#connections.values()].some((c) => c.state().status === 'ready' && c.listensForChanges());
    if (!listens) return;
    const end = Date.now() + maxMs;
    let last = Date.now();
    const off = this.onChanged(() => (last = Date.now()));
    try {
      while (Date.now() - last < quietMs && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    } finally {
      off();
    }
  }

  groups(): ToolGroup[] {
    if (!this.#groups) {
      const taken = new Set<string>();
      const stateDir = this.#deps.stateDir;
      this.#groups = [...this.#connections.values()].map((c) => {
        // Where the server resolves relative paths: what the rules resolve them against.
        const relativeTo = serverRelativeTo(c.server, this.#deps.workingDir, this.#deps.env ?? process.env);
        if (c.wanted) return serverGroup(c, taken, undefined, relativeTo);
        const known = stateDir ? readKnownTools(knownToolsFile(stateDir, c.name)) : undefined;
        return serverGroup(c, taken, known ?? { tools: [] }, relativeTo);
      });
    }
    return this.#groups;
  }

  diagnostics(): Diagnostic[] {
    const out = [...this.#configDiagnostics];
    for (const connection of this.#connections.values()) {
      out.push(...connection.diagnostics());
      const state = connection.state();
      if (state.status === 'failed') out.push({ severity: 'error', file: `mcpServers.${connection.name}`, message: `MCP server "${connection.name}" ${state.detail ?? 'failed'}`, code: 'mcp-server' });
    }
    return out;
  }

  onChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    await Promise.all([...this.#connections.values()].map((c) => c.stop()));
    this.#connections.clear();
  }

  #connect(server: McpServer): McpConnection {
    const connection: McpConnection = new McpConnection(server, this.#deps, () => {
      if (this.#connections.get(server.name) === connection) this.#emit();
    });
    return connection;
  }

  /** Coalesces the many state changes of a start into one notification. */
  #emit(): void {
    this.#groups = undefined;
    if (this.#pending || this.#closed) return;
    this.#pending = true;
    queueMicrotask(() => {
      this.#pending = false;
      for (const listener of [...this.#listeners]) {
        try {
          listener();
        } catch {
          // One listener's failure must not keep the others from hearing about the change.
        }
      }
    });
  }
}
