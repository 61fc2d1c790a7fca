// One MCP server's life: started on demand, its tools listed (bounded), calls made with progress,
// timeout and cancellation, restarted with backoff after a crash, stopped with its process group.
// Every failure ends as a state with a readable reason and, for a call, an ERROR result.
// Its parts: remote-transport.ts / stdio-server-transport.ts (how it connects), server-requests.ts
// (what the server may ask), listed-tools.ts (its tool list checked), server-calls.ts (its calls).
import type { Client, StreamableHTTPClientTransport, Tool as McpTool, Transport } from '@modelcontextprotocol/client';
import { DEFAULT_LIMITS } from '../../../../../shared/settings.ts';
import type { Diagnostic } from '../../../../../shared/tools.ts';
import type { ToolContext, ToolRunResult } from '../../../tools/types.ts';
import { toolUiMeta, visibleToModel } from '../mapping/tool-ui-meta.ts';
import { ServerCalls } from './server-calls.ts';
import { checkListedTools } from '../mapping/listed-tools.ts';
import { loadMcpSdk, mcpSdk } from '../mcp-sdk.ts';
import { launcherHint } from '../config/launchers.ts';
import type { McpOAuthFlow } from './oauth-flow.ts';
import { isLegacyAuthServer, remoteServerTransport } from './remote-transport.ts';
import { switchedOffMessage, type McpServer } from '../config/server-config.ts';
import { clientCapabilities, handleServerRequests } from './server-requests.ts';
import { allowWriteText, cannotAllowWriteText, findWriteRefusal, type WriteRefusal } from '../config/write-refusal.ts';
import { ServerLog, serverLogFile } from './server-log.ts';
import { isStartTimeout, StartTimeline, StartTimeoutError, startTimeoutText } from './start-timeline.ts';
import { stdioServerTransport } from './stdio-server-transport.ts';
import { exitText, ManagedStdioTransport } from './stdio-transport.ts';
import type { McpClientDeps, McpServerStateInfo } from '../types.ts';

const CLIENT_INFO = { name: 'Tooldesk', version: '0.1.0' };
const DEFAULT_RESTART_DELAYS = [1000, 2000, 4000, 8000, 16000, 30000];
/** A server that ran this long before crashing starts its backoff from the beginning again. */
const HEALTHY_MS = 60_000;

type Status = McpServerStateInfo['status'];

export class McpConnection {
  readonly log: ServerLog;
  #server: McpServer;
  readonly #deps: McpClientDeps;
  readonly #changed: () => void;
  #client: Client | undefined;
  #transport: Transport | undefined;
  #starting: Promise<Client | { error: string }> | undefined;
  #tools: McpTool[] = [];
  #diagnostics: Diagnostic[] = [];
  #status: Status = 'stopped';
  #detail: string | undefined;
  #sandboxed: boolean | undefined;
  #secretScanNotes: string[] = [];
  #wanted = false;
  #stopping = false;
  #restarts = 0;
  #crashes = 0;
  #readyAt = 0;
  readonly #timeline = new StartTimeline();
  /** Bumped on `notifications/resources/list_changed` and on every start: cached resources (apps) are read again. */
  resourcesVersion = 0;
  #restartTimer: NodeJS.Timeout | undefined;
  /** Why the current connection ended, set before its pending calls are rejected. */
  #crash: string | undefined;
  /** Where this start's output (then, once ready, its later output) begins in the log. */
  #logMark = 0;
  #oauth: McpOAuthFlow | undefined;
  /** The folders a stdio server may write to, as started. */
  #writable: string[] = [];
  /** A 2025-03-26 server (no protected-resource metadata) whose AS metadata names another issuer. */
  #legacyIssuer = false;
  /** The last write the sandbox refused, offered as "Allow writing to FOLDER". */
  #writeRefusal: WriteRefusal | undefined;
  /** Its tool calls: sent, bounded, recorded, and what the server asks during them. */
  readonly #calls: ServerCalls;

  constructor(server: McpServer, deps: McpClientDeps, changed: () => void) {
    this.#server = server;
    this.#deps = deps;
    this.#changed = changed;
    const calls = { server: () => this.#server, client: () => this.ensureStarted(), processId: () => this.processId(), crash: () => this.#crash };
    this.#calls = new ServerCalls({ ...calls, finish: (result) => this.#askToAllowWrite(result) }, deps.maxSamplingPerCall ?? 5);
    this.log = new ServerLog(deps.logDir ? { file: serverLogFile(deps.logDir, server.name) } : {});
    if (!server.enabled) this.#status = 'disabled';
    this.log.onLine((line, source) => this.#calls.recorder.line(line, source));
  }

  get name(): string {
    return this.#server.name;
  }

  get server(): McpServer {
    return this.#server;
  }

  /** The server said it announces tool list changes. */
  listensForChanges(): boolean {
    return this.#client?.getServerCapabilities()?.tools?.listChanged === true;
  }

  /** The stdio server's process id while it runs. */
  processId(): number | undefined {
    return this.#transport instanceof ManagedStdioTransport ? this.#transport.child?.pid : undefined;
  }

  tools(): McpTool[] {
    return this.#tools;
  }

  diagnostics(): Diagnostic[] {
    return this.#diagnostics;
  }

  state(): McpServerStateInfo {
    return {
      name: this.name,
      status: this.#status,
      transport: this.#server.kind,
      tools: this.#tools.length,
      appOnlyTools: this.#tools.filter((t) => !visibleToModel(toolUiMeta(t._meta))).length,
      offered: (['elicitation', 'sampling'] as const).filter((o) => o in clientCapabilities(this.#server, this.#deps.interactions)),
      restarts: this.#restarts,
      ...(this.#detail ? { detail: this.#detail } : {}),
      ...(this.#sandboxed !== undefined ? { sandboxed: this.#sandboxed } : {}),
      ...(this.#writeRefusal ? { writeRefusal: this.#writeRefusal } : {}),
      ...(this.#client?.getNegotiatedProtocolVersion() ? { protocolVersion: this.#client.getNegotiatedProtocolVersion()! } : {}),
      ...(this.#timeline.view() ? { startTimeline: this.#timeline.view()! } : {}),
    };
  }

  /** The user switched its group on (and it is enabled in settings). */
  get wanted(): boolean {
    return this.#wanted;
  }

  /**
   * One request to the server outside a tool call (prompts, resources): started on demand,
   * bounded by the server's timeout; failures are a message naming the server, never a throw.
   */
  async request<T>(
    what: string,
    send: (client: Client, options: { timeout: number; signal?: AbortSignal }) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
    const client = await this.ensureStarted();
    if ('error' in client) return { ok: false, error: client.error };
    try {
      return { ok: true, value: await send(client, { timeout: this.#server.timeoutMs, ...(signal ? { signal } : {}) }) };
    } catch (error) {
      if (error instanceof mcpSdk().SdkError && error.code === mcpSdk().SdkErrorCode.RequestTimeout) return { ok: false, error: `MCP server "${this.name}" did not answer ${what} within ${Math.round(this.#server.timeoutMs / 1000)} s` };
      return { ok: false, error: `MCP server "${this.name}" could not ${what}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /** The group was switched on (start now, unless `start` is false: then on first use) or off (stop). */
  setWanted(wanted: boolean, start = true): void {
    this.#wanted = wanted && this.#server.enabled;
    if (start && this.#wanted && (this.#status === 'stopped' || this.#status === 'failed') && !this.#restartTimer) void this.ensureStarted();
    if (!this.#wanted && (this.#status === 'ready' || this.#status === 'starting')) void this.stop();
  }

  /** Connects once (concurrent callers share the attempt). */
  ensureStarted(): Promise<Client | { error: string }> {
    // Switched off means never started, whoever asks (a call, a listing, a prompt).
    if (!this.#server.enabled || !this.#wanted) return Promise.resolve({ error: switchedOffMessage(this.name) });
    if (this.#client && this.#status === 'ready') return Promise.resolve(this.#client);
    clearTimeout(this.#restartTimer);
    this.#restartTimer = undefined;
    this.#starting ??= this.#start().finally(() => (this.#starting = undefined));
    return this.#starting;
  }

  async restart(): Promise<Client | { error: string }> {
    await this.stop();
    this.#crashes = 0;
    return this.ensureStarted();
  }

  async stop(): Promise<void> {
    clearTimeout(this.#restartTimer);
    this.#restartTimer = undefined;
    const starting = this.#starting;
    this.#stopping = true;
    try {
      await this.#transport?.close().catch(() => {});
      await starting?.catch(() => undefined);
      await this.#client?.close().catch(() => {});
    } finally {
      this.#client = undefined;
      this.#transport = undefined;
      this.#stopping = false;
      await this.#oauth?.close();
      this.#oauth = undefined;
      this.log.flush();
      if (this.#status !== 'disabled') this.#set('stopped');
    }
  }

  callTool(tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolRunResult> {
    return this.#calls.call(tool, args, ctx);
  }

  /** A write the sandbox refused becomes "Allow writing to FOLDER" in the error and the server's state. */
  #askToAllowWrite(result: ToolRunResult): ToolRunResult {
    if (result.status !== 'ERROR' || !this.#sandboxed || !result.error) return result;
    const refusal = findWriteRefusal(result.error, this.#deps.isProtected, this.#deps.sandboxBase?.homeDir);
    if (!refusal) return result;
    if ('never' in refusal) return { ...result, error: `${result.error}\n${cannotAllowWriteText(this.name, refusal)}` };
    this.#writeRefusal = refusal;
    this.#changed();
    return { ...result, error: `${result.error}\n${allowWriteText(this.name, refusal)}` };
  }

  /** The executor's deadline for a call of `tool`: a backstop above its idle timeout. */
  callDeadlineMs(tool: string): number {
    return this.#calls.deadlineMs(tool);
  }

  #set(status: Status, detail?: string): void {
    this.#status = status;
    this.#detail = detail;
    this.#changed();
  }

  async #start(afterSignIn = false): Promise<Client | { error: string }> {
    this.#crash = undefined;
    this.#logMark = this.log.mark();
    const timeoutMs = this.#server.startTimeoutMs ?? this.#deps.startTimeoutMs ?? DEFAULT_LIMITS.mcpStartTimeoutMs;
    this.#timeline.begin(timeoutMs);
    this.#set('starting');
    const { Client, UnauthorizedError } = await loadMcpSdk();
    const built = await this.#transportFor();
    if ('error' in built) return this.#fail(built.error);
    const transport = built.transport;
    this.#transport = transport;
    this.#calls.recorder.watch(transport);
    const client = new Client(CLIENT_INFO, {
      capabilities: clientCapabilities(this.#server, this.#deps.interactions),
      versionNegotiation: { mode: 'auto', probe: { timeoutMs: 5000 } },
      listChanged: {
        tools: {
          onChanged: (error, tools) => {
            if (error) this.log.add(`tooldesk: reloading the tool list failed: ${error.message}`);
            else if (tools) this.#setTools(tools, true);
          },
        },
        resources: { autoRefresh: false, onChanged: () => void this.resourcesVersion++ },
      },
    });
    handleServerRequests(client, {
      server: this.#server,
      interactions: this.#deps.interactions,
      log: this.log,
      askContext: (signal) => this.#calls.askContext(signal),
      takeSampling: () => this.#calls.takeSampling(),
      maxSamplingPerCall: this.#deps.maxSamplingPerCall ?? 5,
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StartTimeoutError()), timeoutMs);
      });
      await Promise.race([client.connect(transport, { timeout: timeoutMs }), timedOut]);
      this.#timeline.mark('initialize');
      // A server without tools (one that serves only skills or prompts) is not asked: the SDK would print a debug line on stdout.
      const listed = client.getServerCapabilities()?.tools ? await Promise.race([client.listTools(undefined, { timeout: timeoutMs }), timedOut]) : { tools: [] };
      this.#timeline.mark('tools/list');
      clearTimeout(timer);
      if (this.#stopping) {
        await client.close().catch(() => {});
        return { error: `MCP server "${this.name}" was stopped while starting` };
      }
      this.#client = client;
      client.onclose = () => this.#closed(client);
      this.#readyAt = Date.now();
      this.#logMark = this.log.mark();
      this.resourcesVersion++;
      this.#setTools(listed.tools, false);
      this.#set('ready', this.#sandboxNote());
      if (client.getServerCapabilities()?.logging) void client.setLoggingLevel('info').catch(() => {});
      return client;
    } catch (error) {
      clearTimeout(timer);
      if (error instanceof UnauthorizedError && this.#oauth && !afterSignIn && !this.#stopping) return this.#signIn(transport);
      if (/Issuer mismatch/i.test(String(error)) && !this.#legacyIssuer && this.#server.kind !== 'stdio' && (await isLegacyAuthServer(this.#server, this.#deps.fetch))) {
        this.#legacyIssuer = true;
        this.log.add('tooldesk: a 2025-03-26 server (no protected-resource metadata) whose metadata names another issuer: accepted for this server');
        await transport.close().catch(() => {});
        return this.#start(afterSignIn);
      }
      if (error instanceof UnauthorizedError && !this.#oauth && this.#server.kind !== 'stdio' && !this.#server.oauth) {
        await transport.close().catch(() => {});
        return this.#fail('could not start: the server asks for sign-in (OAuth), which is not set up here; give it a token with "headers", or use the `tooldesk` commands');
      }
      // A start that ran out of time says where it stood (the SDK's own timeout may close the
      // transport first, so "killed (SIGTERM)" would hide it); otherwise how the process ended
      // says more than the SDK's "connection closed".
      const timedOut = isStartTimeout(error) ? startTimeoutText(this.name, timeoutMs, this.#timeline.view()!) : undefined;
      const exit = timedOut ? undefined : await exitText(transport);
      await transport.close().catch(() => {});
      const reason = timedOut ?? exit ?? (error instanceof Error ? error.message : String(error));
      return this.#fail(`could not start: ${reason}`);
    }
  }

  /** The server wants OAuth: the browser was opened; wait for its redirect, then connect again. */
  async #signIn(transport: Transport): Promise<Client | { error: string }> {
    this.log.add('tooldesk: the server asks for sign-in (OAuth); waiting for the browser');
    this.#set('starting', 'waiting for sign-in in the browser');
    try {
      const params = await this.#oauth!.waitForCallback();
      await (transport as StreamableHTTPClientTransport).finishAuth(params);
    } catch (error) {
      await transport.close().catch(() => {});
      return this.#fail(`sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    await transport.close().catch(() => {});
    this.log.add('tooldesk: signed in');
    return this.#start(true);
  }

  /** Package launchers write to their caches, which the default sandbox keeps read-only. */
  #launcherHint(): string | undefined {
    const server = this.#server;
    if (server.kind !== 'stdio' || server.sandbox === 'off' || this.#sandboxed === false) return undefined;
    return launcherHint(server);
  }

  #fail(reason: string): { error: string } {
    const output = this.log.excerpt(this.#logMark);
    const hint = this.#launcherHint();
    const detail = [reason, output, hint].filter(Boolean).join('\n');
    this.#set('failed', detail);
    return { error: `MCP server "${this.name}" ${detail}` };
  }

  async #transportFor(): Promise<{ transport: Transport } | { error: string }> {
    const server = this.#server;
    const deps = this.#deps;
    if (server.kind === 'stdio') {
      const made = await stdioServerTransport(server, deps, this.log, (sandboxed, notes) => {
        this.#sandboxed = sandboxed;
        this.#secretScanNotes = notes;
        this.#timeline.mark('spawn');
      });
      if ('transport' in made) this.#writable = made.writable;
      return made;
    }
    const made = await remoteServerTransport(server, deps, this.log, { oauth: this.#oauth, legacyIssuer: this.#legacyIssuer });
    if ('transport' in made) {
      this.#oauth = made.oauth;
      this.#timeline.mark('spawn');
    }
    return made;
  }

  #setTools(tools: McpTool[], reload: boolean): void {
    const checked = checkListedTools(tools, this.#server, this.#deps, this.#wanted);
    this.#tools = checked.tools;
    this.#diagnostics = checked.diagnostics;
    if (reload) this.log.add(`tooldesk: tool list changed (${checked.tools.length} tools)`);
    this.#changed();
  }

  #sandboxNote(): string | undefined {
    if (this.#server.kind !== 'stdio') return undefined;
    if (this.#sandboxed === false) return this.#server.sandbox === 'off' ? 'sandbox off (settings)' : 'not sandboxed: no sandbox is available here';
    if (this.#sandboxed) return [`sandboxed: network allowed, home read-only${this.#writable.length ? `, writes to ${this.#writable.join(', ')}` : ''}`, ...this.#secretScanNotes].join('; ');
    return undefined;
  }

  #closed(client: Client): void {
    if (client !== this.#client || this.#stopping) return;
    const transport = this.#transport;
    const exit = transport instanceof ManagedStdioTransport ? transport.exit : undefined;
    this.#crash = exit ? `crashed (${exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`})` : 'closed the connection';
    const output = this.log.excerpt(this.#logMark);
    this.#client = undefined;
    this.#transport = undefined;
    if (Date.now() - this.#readyAt > HEALTHY_MS) this.#crashes = 0;
    const delays = this.#deps.restartDelaysMs ?? DEFAULT_RESTART_DELAYS;
    const delay = delays[this.#crashes];
    this.#crashes++;
    this.log.add(`tooldesk: the server ${this.#crash}${delay !== undefined && this.#wanted ? `; restarting in ${delay} ms` : ''}`);
    this.#set('failed', output ? `${this.#crash}\n${output}` : this.#crash);
    if (this.#wanted && delay !== undefined) {
      this.#restartTimer = setTimeout(() => {
        this.#restartTimer = undefined;
        this.#restarts++;
        void this.ensureStarted();
      }, delay);
      this.#restartTimer.unref?.();
    }
  }
}
