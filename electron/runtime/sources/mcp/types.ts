// What the MCP client asks of the app: a way to start processes, secrets, and a person for
// elicitation and sampling requests. Everything is optional so the CLI and tests pass only what
// they have; a missing handler means the request is declined.
import type { StartTimelineView } from './connection/start-timeline.ts';
import type { CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';
import type { McpOAuthFlow } from './connection/oauth-flow.ts';
import type { SandboxSpec, SecretResolver } from '../../runner/types.ts';
import type { StartChild } from './connection/stdio-transport.ts';
import type { McpClientOffer } from '../../../../shared/mcp-tool-count.ts';

/** The spec handed to runner/spawn-managed.ts for a stdio server. */
export interface ServerSpawnSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  sandbox?: SandboxSpec;
  maxStderrBytes?: number;
}

export type SpawnServer = (spec: ServerSpawnSpec) => ReturnType<StartChild>;

export type { McpClientOffer };

export interface McpServerStateInfo {
  name: string;
  status: 'disabled' | 'stopped' | 'starting' | 'ready' | 'failed';
  transport: 'stdio' | 'http' | 'sse';
  tools: number;
  /** Of those, the ones only its apps may call (`_meta.ui.visibility` without "model"). */
  appOnlyTools: number;
  /** The capabilities that change which tools a server lists, as this client offers them. */
  offered: McpClientOffer[];
  /** Why it failed (with the stderr tail), or what the sandbox did. */
  detail?: string;
  sandboxed?: boolean;
  protocolVersion?: string;
  restarts: number;
  /** The last write the sandbox refused, and the folder to offer ("Allow writing to FOLDER"). */
  writeRefusal?: { path: string; folder: string };
  /** How the last start went, step by step (see start-timeline.ts). */
  startTimeline?: StartTimelineView;
}

/** An elicitation request with the server it came from. */
export interface ElicitationAsk {
  server: string;
  params: ElicitRequestParams;
  /** The tool call it arrived during (the latest one of this server still running), to show it in that chat. */
  call?: { sessionId: string; callId: string };
  /** The tool that asks, when a tool rather than an MCP server does (Open WebUI's `__event_call__`). */
  tool?: string;
  /** A yes/no confirmation: shown with Confirm/Cancel, not as a form to send. */
  confirm?: boolean;
}

/** A sampling request with the server it came from. */
export interface SamplingAsk {
  server: string;
  params: CreateMessageRequestParams;
  call?: { sessionId: string; callId: string };
}

export interface McpInteractions {
  /** Contract: resolves with the user's answer (decline/cancel included); never rejects. */
  elicit?: (ask: ElicitationAsk, signal: AbortSignal) => Promise<ElicitResult>;
  /** Contract: resolves with the model's answer, or rejects with a message the server will read. */
  sample?: (ask: SamplingAsk, signal: AbortSignal) => Promise<CreateMessageResult>;
}

export interface McpClientDeps {
  spawn: SpawnServer;
  resolveSecrets: SecretResolver;
  /** The folder given as the client's root and the default cwd of stdio servers. */
  workingDir: string;
  /** Paths no server may be offered to write (TOOLDESK_HOME, tool roots): never proposed by "Allow writing". */
  isProtected?: (path: string) => boolean;
  /** Sandbox defaults (home, limits) merged into each stdio server's spec. */
  sandboxBase?: Partial<SandboxSpec>;
  interactions?: McpInteractions;
  /** OAuth for HTTP servers that ask for it (made once per server); absent = a 401 fails with a clear message. */
  oauth?: (server: string, url: string, client?: { client_id: string; client_secret?: string }) => Promise<McpOAuthFlow | undefined>;
  /** Replaces fetch for HTTP servers (tests). */
  fetch?: typeof fetch;
  /** From `initialize`/`server/discover` to the tools listed, ms (default 30 000). */
  startTimeoutMs?: number;
  /** Largest JSON-RPC message from a stdio server, bytes (default 64 MiB). */
  maxMessageBytes?: number;
  /** Most tools kept from one server (default 1000). */
  maxTools?: number;
  /** Largest inputSchema kept as is, bytes of JSON (default 256 KiB). */
  maxSchemaBytes?: number;
  /** Sampling requests one server may make per tool call (default 5). */
  maxSamplingPerCall?: number;
  /** Where the tool descriptions seen when a server was enabled are kept (`NAME.tools.json`), to flag later changes. */
  stateDir?: string;
  /** Where each server's bounded log is also written (`NAME.log`); absent = memory only. */
  logDir?: string;
  /** Where `${env:NAME}` in a server's config is read from when it starts (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Restart delays after a crash, ms (default 1 s doubling to 30 s); no restart after the last. */
  restartDelaysMs?: number[];
}
