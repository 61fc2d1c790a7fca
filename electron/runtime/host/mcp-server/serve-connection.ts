// One MCP client's connection to `tooldesk mcp serve`: its own ToolSession (executor, variables,
// the tool list kept in step with hot reloads and the settings), and the low-level MCP `Server` whose
// handlers answer tools/list, tools/call and the variables as resources. Approvals that need a
// human are asked through elicitation; a client that cannot ask gets a refusal naming the setting.
import {
  inputRequired,
  inputResponse,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  type CallToolResult,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type ElicitResult,
  type InputRequiredResult,
  type ReadResourceResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ApprovalDecision, ApprovalRequest, ToolExecuteResult } from '../../../../shared/tools.ts';
import { closeNamesHint } from '../../tools/close-names.ts';
import type { ToolSession } from '../../tools/tool-session.ts';
import type { ElicitationAsk } from '../../sources/mcp/types.ts';
import { approvalForm, decisionFrom } from './approval-form.ts';
import type { AuditWriter } from '../../audit/audit-log.ts';
import type { McpServeAuditEvent } from '../../../../shared/permissions.ts';
import { CallRun, runIdOfToken, type RoundPort } from './call-run.ts';
import { listMcpTools } from './tool-listing.ts';
import { attachSkills, SKILL_URI_PREFIX } from './serve-skills.ts';
import type { McpToolFeed } from './tool-feed.ts';
import type { ServeInteractionRouter } from './serve-interactions.ts';

export const VARIABLE_URI_PREFIX = 'tooldesk://variables/';
const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';

export interface McpServeConnectionOptions {
  /** Names the connection in the audit log and the executor's variables. */
  id: string;
  transport: 'stdio' | 'http';
  serverInfo: { name: string; version: string };
  feed: McpToolFeed;
  /** The one audit log: this connection's events are its `mcp-serve` entries. */
  audit?: AuditWriter;
  log?: (message: string) => void;
  /** How long an approval question waits for the client's answer (10 min). */
  approvalTimeoutMs?: number;
  /** Calls running at once; more wait their turn (32). */
  maxRunning?: number;
  /** Calls waiting for a turn; more are refused with an error result (256). */
  maxQueued?: number;
  /** Routes the questions a running tool asks (__event_call__, a proxied server's elicitation) to this connection. */
  interactions?: ServeInteractionRouter;
}

/** A call in flight and what its approvals need to know about the client that made it. */
interface CallEntry {
  run: CallRun;
  callId: string;
  modelName: string;
  canElicit: boolean;
  clientName: string;
  /** Said under the result: questions the tool asked that the client could not show. */
  notes: string[];
}

export class McpServeConnection {
  readonly tools: ToolSession;
  readonly server: Server;
  readonly #options: McpServeConnectionOptions;
  readonly #runs = new Map<string, CallEntry>();
  /** Calls by the JSON-RPC id of the request round that is open now (HTTP aborts them when the client hangs up). */
  readonly #openRounds = new Map<string | number, CallEntry>();
  readonly #disposers: (() => void)[] = [];
  #running = 0;
  readonly #queue: (() => void)[] = [];
  #listed = '';
  #closed = false;
  #readSkill: ((uri: string, ctx: ServerContext) => Promise<ReadResourceResult>) | undefined;

  constructor(options: McpServeConnectionOptions) {
    this.#options = options;
    this.tools = options.feed.toolSession({
      sessionId: options.id,
      approve: (request, signal) => this.#approve(request, signal),
      onlyGroups: options.feed.onlyGroups,
      log: (message) => options.log?.(message),
      ...(options.feed.toolSet ? { toolSet: options.feed.toolSet, exactToolSet: true } : {}),
    });
    this.#listed = JSON.stringify(listMcpTools(this.tools));
    this.#disposers.push(
      this.tools.onChanged(() => this.#announceIfChanged()),
      this.tools.variables.onChange(() => void this.server.sendResourceListChanged().catch(() => {})),
    );
    this.server = new Server(options.serverInfo, {
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
      instructions:
        'Tools written by the user in Tooldesk. Calls may ask the user for approval first. Long results are cut; ' +
        'the whole text is kept in a variable that ReadVar reads (also a resource tooldesk://variables/NAME).',
    });
    this.#registerHandlers();
    if (options.feed.skills) this.#readSkill = attachSkills(this.server, options.feed.skills);
    if (options.interactions) this.#disposers.push(options.interactions.add(options.id, { elicit: (ask, signal) => this.#elicit(ask, signal) }));
    this.server.onclose = () => this.close();
    this.#audit({ event: 'connect', transport: options.transport });
  }

  /** Stops everything this connection started: pending questions are rejected and running tools killed. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const dispose of this.#disposers.splice(0)) dispose();
    for (const { run } of this.#runs.values()) run.abort('The MCP client disconnected.');
    for (const start of this.#queue.splice(0)) start();
    this.tools.close();
    this.#audit({ event: 'disconnect' });
  }

  #audit(event: McpServeAuditEvent): void {
    this.#options.audit?.write({ kind: 'mcp-serve', connection: this.#options.id, ...event });
  }

  /** The client hung up on these requests (an HTTP response stream closed early): stop their calls. */
  abortRequests(ids: (string | number)[], reason: string): void {
    for (const id of ids) this.#openRounds.get(id)?.run.abort(reason);
  }

  get closed(): boolean {
    return this.#closed;
  }

  // ── tools ──────────────────────────────────────────────────────────────────────────────────

  #announceIfChanged(): void {
    const listed = JSON.stringify(listMcpTools(this.tools));
    if (listed === this.#listed) return;
    this.#listed = listed;
    void this.server.sendToolListChanged().catch(() => {});
  }

  #registerHandlers(): void {
    const server = this.server;
    // A host lists once and calls: the list waits for the MCP servers still starting (tool-feed.ts ready).
    server.setRequestHandler('tools/list', async () => {
      await this.#options.feed.ready?.();
      return { tools: listMcpTools(this.tools) };
    });
    server.setRequestHandler('tools/call', async (request, ctx) => {
      await this.#options.feed.ready?.();
      return this.#call(request.params.name, request.params.arguments ?? {}, request.params._meta?.progressToken, ctx);
    });
    server.setRequestHandler('resources/list', async () => ({
      resources: this.tools.variables.list({ limit: 1000 }).items.map((v) => ({
        uri: `${VARIABLE_URI_PREFIX}${encodeURIComponent(v.name)}`,
        name: v.name,
        description: v.desc ?? `${v.type} variable`,
        mimeType: 'text/plain',
      })),
    }));
    server.setRequestHandler('resources/templates/list', async () => ({
      resourceTemplates: [
        { uriTemplate: `${VARIABLE_URI_PREFIX}{name}`, name: 'variable', description: 'A Tooldesk variable (full tool results)', mimeType: 'text/plain' },
      ],
    }));
    server.setRequestHandler('resources/read', async (request, ctx) => {
      const { uri } = request.params;
      if (this.#readSkill && uri.startsWith(SKILL_URI_PREFIX)) return this.#readSkill(uri, ctx);
      const name = uri.startsWith(VARIABLE_URI_PREFIX) ? safeDecode(uri.slice(VARIABLE_URI_PREFIX.length)) : undefined;
      const variable = name === undefined ? undefined : this.tools.variables.get(name);
      if (!variable) throw new ResourceNotFoundError(uri, `No variable at ${uri}: list them with resources/list or the ListVars tool.`);
      return { contents: [{ uri, mimeType: 'text/plain', text: variable.value }] };
    });
  }

  // ── calls ──────────────────────────────────────────────────────────────────────────────────

  async #call(name: string, args: unknown, progressToken: string | number | undefined, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> {
    const round: RoundPort = { signal: ctx.mcpReq.signal, ...(progressToken !== undefined ? { progress: progressSender(ctx, progressToken) } : {}) };
    const state = ctx.mcpReq.requestState();
    let entry: CallEntry;
    if (typeof state === 'string') {
      // The round's state is the open question's token; the run it names checks it.
      const waiting = this.#runs.get(runIdOfToken(state));
      if (!waiting?.run.resume(state)) return errorResult('This approval question is no longer open (it was answered, expired, or belongs to another connection). Call the tool again.');
      entry = waiting;
      if (entry.run.openQuestion === 'elicit') entry.run.answerElicitation(elicitResultFrom(inputResponse(ctx.mcpReq.inputResponses, 'input')));
      else entry.run.answer(decisionFrom(inputResponse(ctx.mcpReq.inputResponses, 'approval'), entry.clientName));
    } else {
      entry = this.#start(name, args, ctx);
    }
    const { run } = entry;
    const requestId = ctx.mcpReq.id;
    this.#openRounds.set(requestId, entry);
    let step;
    try {
      step = await run.next(round);
    } finally {
      if (this.#openRounds.get(requestId) === entry) this.#openRounds.delete(requestId);
    }
    if (step.kind === 'done') return callToolResult(step.result, entry.notes);
    const id = run.questionToken!;
    if (step.kind === 'elicit') return inputRequired({ inputRequests: { input: inputRequired.elicit(step.params) }, requestState: id });
    return inputRequired({ inputRequests: { approval: inputRequired.elicit(approvalForm(step.request, entry.modelName)) }, requestState: id });
  }

  #start(name: string, args: unknown, ctx: ServerContext): CallEntry {
    if (!this.tools.hasTool(name)) {
      const offered = listMcpTools(this.tools).map((t) => t.name);
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}.${closeNamesHint(name, offered)} Call tools/list for the tools offered.`);
    }
    const callId = `mcp_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const { canElicit, clientName } = this.#client(ctx);
    // Clients call by the listed (model) name; a real name that differs is looked up the slow way.
    const listed = this.tools.definitions().some((d) => d.function.name === name);
    const modelName = listed ? name : (this.tools.tool(name)?.modelName ?? name);
    const run = new CallRun(async (signal, onUpdate) => {
      const admitted = await this.#admit(signal);
      if (!admitted.ok) return { status: 'ERROR', error: admitted.message, finalText: admitted.message, callId };
      try {
        this.#audit({ event: 'call', tool: name, callId, args });
        const result = await this.tools.execute(name, args, { callId, signal, onUpdate });
        this.#audit({
          event: 'result',
          tool: name,
          callId,
          status: result.status,
          text: result.finalText ?? result.error ?? '',
          ...(result.durationMs !== undefined ? { durationMs: Math.round(result.durationMs) } : {}),
        });
        return result;
      } finally {
        admitted.release();
        this.#runs.delete(callId);
      }
    }, { id: callId, answerTimeoutMs: this.#options.approvalTimeoutMs ?? 10 * 60_000 });
    const entry: CallEntry = { run, callId, modelName, canElicit, clientName, notes: [] };
    this.#runs.set(callId, entry);
    return entry;
  }

  /** A bounded number of calls run at once; the rest queue (and leave the queue when cancelled). */
  #admit(signal: AbortSignal): Promise<{ ok: true; release: () => void } | { ok: false; message: string }> {
    const maxRunning = this.#options.maxRunning ?? 32;
    const release = () => {
      this.#running--;
      this.#queue.shift()?.();
    };
    if (this.#closed) return Promise.resolve({ ok: false, message: 'The MCP connection is closed.' });
    if (this.#running < maxRunning) {
      this.#running++;
      return Promise.resolve({ ok: true, release });
    }
    if (this.#queue.length >= (this.#options.maxQueued ?? 256)) {
      return Promise.resolve({ ok: false, message: `Too many calls at once on this connection (${maxRunning} running, ${this.#queue.length} waiting). Wait for some to finish.` });
    }
    return new Promise((resolve) => {
      const start = () => {
        signal.removeEventListener('abort', onAbort);
        if (this.#closed || signal.aborted) return resolve({ ok: false, message: 'The call was cancelled before it started.' });
        this.#running++;
        resolve({ ok: true, release });
      };
      const onAbort = () => {
        const index = this.#queue.indexOf(start);
        if (index !== -1) this.#queue.splice(index, 1);
        resolve({ ok: false, message: 'The call was cancelled before it started.' });
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(start);
    });
  }

  /** Which client asks: 2026-07-28 requests carry it in their envelope, 2025 ones at initialize. */
  #client(ctx: ServerContext): { canElicit: boolean; clientName: string } {
    const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
    const caps = (envelope[CAPABILITIES_KEY] as ClientCapabilities | undefined) ?? this.server.getClientCapabilities() ?? {};
    const info = (envelope[CLIENT_INFO_KEY] as { name?: string } | undefined) ?? this.server.getClientVersion();
    const elicitation = caps.elicitation as { form?: unknown; url?: unknown } | undefined;
    // A bare `elicitation: {}` means form support (the rule before modes existed).
    const canElicit = elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
    return { canElicit, clientName: info?.name ? `the MCP client "${info.name}"` : 'the MCP client' };
  }

  /** A question the running tool asks: to the client when it can show one, else declined with a note. */
  async #elicit(ask: ElicitationAsk, signal: AbortSignal): Promise<ElicitResult> {
    const entry = ask.call ? this.#runs.get(ask.call.callId) : undefined;
    if (!entry) return { action: 'decline' };
    const question = ask.params.message.split('\n')[0]!.slice(0, 200);
    const form = ask.params.mode === undefined || ask.params.mode === 'form';
    let result: ElicitResult;
    if (entry.canElicit && form) result = await entry.run.elicit({ ...ask.params, mode: 'form' } as ElicitRequestFormParams, signal);
    else {
      result = { action: 'decline' };
      const why = entry.canElicit ? 'asks to open a web page, which is not passed on' : 'cannot show questions (it does not support MCP elicitation)';
      entry.notes.push(`Note: ${entry.modelName} asked the user "${question}", but ${entry.clientName} ${why}, so the question was declined (a confirmation got False, an input None).`);
    }
    this.#audit({ event: 'question', tool: entry.modelName, callId: entry.callId, message: question, action: result.action, asked: entry.canElicit && form });
    return result;
  }

  async #approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const entry = this.#runs.get(request.callId);
    let decision: ApprovalDecision;
    let asked = false;
    if (!entry) decision = { decision: 'reject', reason: 'No MCP call is waiting for this approval.', unasked: true };
    else if (!entry.canElicit) decision = { decision: 'reject', reason: refusalWithoutElicitation(request, entry.modelName, entry.clientName), unasked: true };
    else {
      asked = true;
      decision = await entry.run.ask(request, signal);
    }
    this.#audit({
      event: 'approval',
      tool: request.toolName,
      callId: request.callId,
      type: request.type,
      decision: decision.decision,
      asked,
      ...(decision.reason ? { reason: decision.reason } : {}),
    });
    return decision;
  }
}

function refusalWithoutElicitation(request: ApprovalRequest, modelName: string, clientName: string): string {
  const setting =
    request.type === 'execution'
      ? `\`tooldesk rules add allow ${request.toolName}\` or \`tooldesk tools policy ${request.toolName} auto\` (or Tooldesk's Settings → Rules / Tools)`
      : `\`tooldesk tools policy ${request.toolName} --result never\` (or set its result policy to "never" in Tooldesk's Settings → Tools)`;
  const what = request.type === 'execution' ? `${modelName} was not run` : `the result of ${modelName} was withheld`;
  return (
    `approval could not be asked: ${clientName} cannot show approval questions (it does not support MCP elicitation), and ${modelName}'s policy ` +
    `"${request.policy}" needs one, so ${what}; nobody refused it. Whoever runs this Tooldesk server can allow it without asking: ${setting}.`
  );
}

/** The client's answer to a tool's question, as the tool gets it (no answer: cancel). */
function elicitResultFrom(answer: ReturnType<typeof inputResponse>): ElicitResult {
  const given = answer as { kind?: string; action?: ElicitResult['action']; content?: ElicitResult['content'] };
  if (given.kind !== 'elicit' || !given.action) return { action: 'cancel' };
  return { action: given.action, ...(given.action === 'accept' && given.content ? { content: given.content } : {}) };
}

function callToolResult(result: ToolExecuteResult, notes: string[] = []): CallToolResult {
  const text = [result.finalText ?? result.error ?? result.rejectReason ?? '', ...notes].filter(Boolean).join('\n\n');
  const meta: Record<string, unknown> = { 'tooldesk/status': result.status };
  if (result.callId) meta['tooldesk/callId'] = result.callId;
  if (result.cacheVarResult) meta['tooldesk/resultVariable'] = result.cacheVarResult;
  // A proxied MCP tool's images go on to this client as images, not only as their description.
  const images = (result.images ?? []).flatMap((i) => (i.data ? [{ type: 'image' as const, data: i.data, mimeType: i.mimeType }] : []));
  return { content: [{ type: 'text', text }, ...images], isError: result.status !== 'SUCCESS', _meta: meta };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** Progress notifications for one round, numbered by its run (call-run.ts RoundPort). Never throws. */
function progressSender(ctx: ServerContext, progressToken: string | number): (progress: number, message: string) => void {
  return (progress, message) => {
    void ctx.mcpReq
      .notify({ method: 'notifications/progress', params: { progressToken, progress, ...(message ? { message: message.slice(0, 2000) } : {}) } })
      .catch(() => {});
  };
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
