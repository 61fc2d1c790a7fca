// `tooldesk mcp serve` as a part of the runtime (createRuntime().mcpServer): everything that
// composes the server lives here, so the CLI only parses its options and prints. Each connection
// (one over stdio; one per MCP session over HTTP) gets its own ToolSession from the runtime's
// factory, writes its events to the runtime's one audit log, and receives the questions its
// calls' tools ask (through the runtime's router). offer() lists what a client would be offered
// from a ToolSession alone: no connection and no MCP `Server` is built to print it. The first
// tools/list (or tools/call) of any connection waits, once per server, for the MCP servers
// still starting (each within its own start bound), and the log names those not ready.
import type { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import type { Settings } from '../../../../shared/settings.ts';
import type { ToolGroupInfo } from '../../../../shared/tools.ts';
import type { AuditWriter } from '../../audit/audit-log.ts';
import type { SecretStore } from '../../store/secret-store.ts';
import type { SettingsStore } from '../../store/settings-store.ts';
import type { ToolSessionFactory } from '../../tools/tool-session.ts';
import { httpHostConfig, vscodeHostConfig } from './host-config.ts';
import { mcpHttpToken, type HttpToken } from './http-token.ts';
import { McpServeConnection } from './serve-connection.ts';
import { startMcpHttpServer, type McpHttpServer } from './serve-http.ts';
import type { ServeInteractionRouter } from './serve-interactions.ts';
import { serveMcpStdio } from './serve-stdio.ts';
import { listMcpTools } from './tool-listing.ts';
import { notReadyText, waitForStarts, type StartWatch } from '../../sources/mcp/ready/wait-for-starts.ts';

export interface McpServerOptions {
  transport: 'stdio' | 'http';
  /** `--group G`: only these groups (still only when enabled in Tooldesk). Empty = every enabled group. */
  onlyGroups?: string[];
  /** `--toolset NAME`: exactly that set's tools, its rules and level. */
  toolSet?: string;
  /** What the server calls itself at initialize. */
  serverInfo: { name: string; version: string };
  /** Where the server's own messages go (the CLI: stderr). */
  log?: (message: string) => void;
}

/** The runtime's parts the server is built over. */
export interface McpServerParts {
  settings: SettingsStore;
  secrets: SecretStore;
  toolSession: ToolSessionFactory;
  audit: AuditWriter | undefined;
  router: ServeInteractionRouter;
  /** Tooldesk's enabled skills, served with the skills extension (serve-skills.ts). */
  skills?: SkillsExtension;
  /** The MCP servers whose starts in flight the first tools/list waits for. */
  starts?: StartWatch;
}

export type { HttpToken, McpHttpServer };

export interface McpServer {
  /** What a client is offered now: the tool count and the groups (built-ins left out). */
  offer(): { tools: number; groups: ToolGroupInfo[] };
  /**
   * Settles once the MCP servers starting have started or passed their start bound (the wait
   * the first tools/list makes; shared with it). Contract: never rejects.
   */
  ready(): Promise<void>;
  settings(): Settings;
  /** One connection over stdin/stdout; `done` resolves when it ends. */
  serveStdio(io: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream }): { done: Promise<void>; close(): Promise<void> };
  /** Streamable HTTP on 127.0.0.1:`port` (0: any free port); `token` undefined turns auth off. */
  serveHttp(options: { port: number; token: string | undefined }): Promise<McpHttpServer>;
  /** The bearer token kept in the keychain (made on first use; `rotate` makes a new one). */
  httpToken(options: { rotate?: boolean }): Promise<HttpToken>;
  /** The configuration snippets hosts take, for the URL and token. */
  hostConfigs(url: string, token: string): { http: string; vscode: string };
  /** Closes every connection still open. Idempotent. */
  close(): void;
}

export function createMcpServer(parts: McpServerParts, options: McpServerOptions): McpServer {
  const onlyGroups = options.onlyGroups ?? [];
  const say = (message: string) => options.log?.(message);
  // Made on first need and shared: every later list is answered at once.
  let ready: Promise<void> | undefined;
  const whenReady = () =>
    (ready ??= waitForStarts(parts.starts!, onlyGroups.length ? { names: onlyGroups } : {}).then(async (notReady) => {
      // The tool sources hear the same last change: let them update the sessions before the list.
      await new Promise((resolve) => setImmediate(resolve));
      if (notReady.length) say(`the first tools/list is answered without the tools of MCP server(s) not ready: ${notReadyText(notReady)}`);
    }));
  const feed = {
    toolSession: parts.toolSession,
    settings: () => parts.settings.get(),
    onlyGroups,
    ...(options.toolSet ? { toolSet: options.toolSet } : {}),
    ...(parts.skills ? { skills: parts.skills } : {}),
    ...(parts.starts ? { ready: whenReady } : {}),
  };
  const open = new Set<McpServeConnection>();
  const makeConnection = (id: string): McpServeConnection => {
    const connection = new McpServeConnection({
      id,
      transport: options.transport,
      serverInfo: options.serverInfo,
      feed,
      ...(parts.audit ? { audit: parts.audit } : {}),
      interactions: parts.router,
      log: (message) => say(`[${id}]: ${message}`),
    });
    for (const done of open) if (done.closed) open.delete(done);
    open.add(connection);
    return connection;
  };
  return {
    offer() {
      const session = parts.toolSession({
        sessionId: 'mcp-serve-offer',
        onlyGroups,
        ...(options.toolSet ? { toolSet: options.toolSet, exactToolSet: true } : {}),
      });
      try {
        return { tools: listMcpTools(session).length, groups: session.listGroups().filter((g) => !g.builtin) };
      } finally {
        session.close();
      }
    },
    ready: () => (parts.starts ? whenReady() : Promise.resolve()),
    settings: () => parts.settings.get(),
    serveStdio: (io) => serveMcpStdio({ makeConnection, ...io, log: say }),
    serveHttp: ({ port, token }) => startMcpHttpServer({ port, token, makeConnection, log: say }),
    httpToken: ({ rotate }) => mcpHttpToken(parts.secrets, { rotate: rotate ?? false }),
    hostConfigs: (url, token) => ({ http: httpHostConfig({ url, token }), vscode: vscodeHostConfig({ url, token }) }),
    close() {
      for (const connection of open) connection.close();
      open.clear();
    },
  };
}
