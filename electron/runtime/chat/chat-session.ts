// A chat session: its own ToolExecutor and VariableSystem, the agent loop, approvals answered
// through the session API, and everything persisted to the session's JSONL file as it happens.
import { randomUUID } from 'node:crypto';
import type { AssistantMessage, Attachment, BranchInfo, ChatEvent, ChatMessage, ChatSettings, ErrorValue, SessionInfo, StopReason, ToolResultMessage, UserMessage } from '../../../shared/chat.ts';
import { DEFAULT_LIMITS, type Settings } from '../../../shared/settings.ts';
import { acceptsImages } from '../../../shared/model-facts.ts';
import type { ApprovalDecision, ApprovalRequest, ToolExecuteResult } from '../../../shared/tools.ts';
import type { ProviderResolution } from '../llm/resolve-provider.ts';
import type { LlmToolCall } from '../llm/types.ts';
import { Emitter } from '../base/emitter.ts';
import { FileError } from '../base/file-error.ts';
import { ToolExecutor } from '../tools/tool-executor.ts';
import type { PermissionStore, ToolGroup } from '../tools/types.ts';
import { VariableSystem } from '../tools/variable-system.ts';
import type { SessionFile, SessionState } from './session-file.ts';
import { ApprovalBroker } from './approval-broker.ts';
import { McpInteractionBroker } from './mcp-interaction-broker.ts';
import type { McpInteractionAnswer, McpInteractionRequest } from '../../../shared/mcp.ts';
import { boundToolResult, type BoundOptions } from './bound-tool-result.ts';
import { applyEnableState, keepExecutorTools, type GroupsChange } from '../tools/executor-groups.ts';
import type { PermissionLevel, ToolSet } from '../../../shared/permissions.ts';
import { applyToolSet } from '../tools/rules/apply-tool-set.ts';
import { bookCallGuard } from '../tools/rules/book-call-guard.ts';
import { findToolSet, type RuleBook } from '../tools/rules/rule-book.ts';
import { parseSlashCommand } from './slash-command.ts';
import { parseToolSetCommand, type ToolSetCommand } from './toolset-command.ts';
import { assistantStopReason, streamAssistantStep, toChatToolCall } from './stream-assistant-step.ts';
import { DEFAULT_TITLE, titleFromMessage } from './title-from-message.ts';
import { toLlmMessages } from './to-llm-messages.ts';
import { VariableJournal } from './variable-journal.ts';
import type { ChatToolSelection } from '../../../shared/tool-selection.ts';
import { FIND_TOOLS } from '../../../shared/tool-selection.ts';
import { applyToolSelection, normalizeSelection, selectionRefusal } from './tool-selection.ts';
import { ToolBudget } from './tool-budget.ts';
import { expandUserVarRefs } from './user-var-refs.ts';
import { unknownToolAnswer } from './unknown-slash.ts';
import { MessageTree } from './message-tree.ts';
import { SessionAttachments, type StoredAttachment } from './session-attachments.ts';
import { stepTiming, type StepClock } from './step-timing.ts';

/** Where a session's tool groups come from (the ToolRegistry fits). */
export interface ToolSource {
  groups(): ToolGroup[];
  /**
   * Contract: the listener is called after the set of groups changed, with which groups changed
   * when known (the ToolRegistry passes them); returns a disposer.
   */
  onChanged?(listener: (change?: GroupsChange) => void): () => void;
}

export interface ChatSessionOptions {
  file: SessionFile;
  /** The replayed file (SessionFile.open); absent for a new session. */
  state?: SessionState;
  settings: () => Settings;
  /** Settings change subscription, to re-apply enable state. Returns a disposer. */
  onSettingsChanged?: (listener: (settings: Settings) => void) => () => void;
  tools?: ToolSource;
  /** Resolved at the start of every turn, so provider changes apply to running sessions; `chat` names the chat's own model. */
  provider: (chat?: ChatSettings) => Promise<ProviderResolution>;
  permissions?: PermissionStore;
  /** Rules, tool sets and the audit log (permissions as data). */
  ruleBook?: RuleBook;
  /** Every event also goes here (the SessionManager's fan-out); it does not count as an approver. */
  forward?: (event: ChatEvent) => void;
  /** Someone outside can answer approvals (the manager has listeners). */
  hasApprover?: () => boolean;
  /** Caps of what the session keeps of each tool result (defaults in bound-tool-result.ts). */
  storedResult?: BoundOptions;
  log?: (message: string) => void;
}

export type TurnOutcome = { turnId: string; stopReason: StopReason; error?: ErrorValue };

export type SendResult = { ok: true; turnId: string; done: Promise<TurnOutcome> } | { ok: false; error: ErrorValue };

const newId = (prefix: string) => `${prefix}-${randomUUID().replace(/-/g, '').slice(0, 12)}`;
const errorValue = (name: string, message: string): ErrorValue => ({ name, message });

export class ChatSession {
  readonly id: string;
  readonly executor: ToolExecutor;
  readonly variables: VariableSystem;
  readonly #file: SessionFile;
  readonly #options: ChatSessionOptions;
  readonly #tree: MessageTree;
  #chat: ChatSettings;
  readonly #events: Emitter<ChatEvent>;
  readonly #approvals: ApprovalBroker;
  readonly #mcpAsks: McpInteractionBroker;
  readonly #disposers: Array<() => void> = [];
  readonly #usedCallIds = new Set<string>();
  readonly attachments: SessionAttachments;
  /** Running calls by the call id the events carry, so one call can be cancelled alone. */
  readonly #runningCalls = new Map<string, AbortController>();
  /** Images stored by calls of this run (file → type), readable before their message is appended. */
  readonly #newToolImages = new Map<string, string>();
  #approvalMemoryJson: string;
  /** This chat's choice of tools; null follows the global switches. */
  #selection: ChatToolSelection | null;
  readonly #budget = new ToolBudget();
  #turn: { id: string; controller: AbortController } | null = null;
  #titled: boolean;
  #closed = false;

  constructor(options: ChatSessionOptions) {
    this.#options = options;
    this.#events = new Emitter({ onListenerError: (error) => options.log?.(`A session event listener failed: ${(error as Error).message}`) });
    this.#file = options.file;
    this.id = options.file.id;
    const state = options.state;
    this.attachments = new SessionAttachments(options.file.dir, this.id);
    this.#tree = state?.tree ?? new MessageTree();
    this.#chat = state?.chat ?? {};
    this.#titled = this.#file.info.title !== DEFAULT_TITLE || this.#tree.all().some((m) => m.role === 'user');
    this.#selection = normalizeSelection(state?.toolSelection);
    for (const m of this.#tree.all()) {
      if (m.role === 'tool') this.#usedCallIds.add(m.result.callId ?? m.callId);
    }
    const limits = options.settings().limits;
    this.variables = new VariableSystem({ maxEntries: limits.variableMaxEntries, maxBytes: limits.variableMaxBytes });
    if (state && state.variables.length > 0) this.variables.restore({ version: 1, variables: state.variables });
    const journal = new VariableJournal(this.variables, (record) => this.#file.append(record));
    this.#approvals = new ApprovalBroker({
      canAsk: () => this.#events.size > 0 || Boolean(options.hasApprover?.()),
      requested: (request) => this.#emit({ type: 'approval.requested', sessionId: this.id, request }),
      resolved: (request, decision) => {
        this.#file.append({ t: 'approval', at: Date.now(), request, decision });
        this.#emit({ type: 'approval.resolved', sessionId: this.id, requestId: request.id, decision });
      },
    });
    this.#mcpAsks = new McpInteractionBroker({
      // Like approvals: someone listening to this session or to the manager (a window, the host).
      canAsk: () => this.#events.size > 0 || Boolean(options.hasApprover?.()),
      requested: (request) => this.#emit({ type: 'mcp.interaction.requested', sessionId: this.id, request }),
      resolved: (request, answer) => this.#emit({ type: 'mcp.interaction.resolved', sessionId: this.id, requestId: request.id, answer }),
    });
    this.executor = new ToolExecutor({
      sessionId: this.id,
      variables: this.variables,
      approve: (request, signal) => this.#approvals.ask(request, signal),
      truncateChars: limits.truncateChars,
      toolTimeoutMs: limits.toolTimeoutMs,
      ...(options.permissions ? { permissions: options.permissions } : {}),
      ...(options.ruleBook ? { guard: bookCallGuard(options.ruleBook, { toolSet: () => this.#chat.toolSet }) } : {}),
      permissionLevel: this.#permissionLevel(),
      log: (message) => this.#notice('warning', message),
    });
    if (state?.approvalMemory) this.executor.importApprovalMemory(state.approvalMemory);
    this.#approvalMemoryJson = JSON.stringify(this.executor.exportApprovalMemory());
    this.#disposers.push(
      this.executor.onVariablesChanged((change) => {
        if (journal.record(change)) this.#emit({ type: 'variables.changed', sessionId: this.id });
      }),
    );
    this.#disposers.push(
      keepExecutorTools(this.executor, {
        tools: options.tools ?? { groups: () => [] },
        enableState: () => options.settings(),
        ...(options.onSettingsChanged ? { onEnableStateChanged: options.onSettingsChanged } : {}),
        ...(options.log ? { log: options.log } : {}),
        // This chat's own choice of tools goes on top of the global switches.
        afterEnable: () => {
          if (this.#selection) applyToolSelection(this.executor, this.#selection);
          const set = this.#toolSet();
          if (set) applyToolSet(this.executor, set);
          this.executor.setPermissionLevel(this.#permissionLevel());
        },
      }),
    );
  }

  // ── reading ─────────────────────────────────────────────────────────────────────────────

  get info(): SessionInfo {
    return this.#file.info;
  }

  /** The shown branch, root → head. */
  messages(): ChatMessage[] {
    return this.#tree.path();
  }

  /** Every message, other branches included, in the order they were written. */
  allMessages(): ChatMessage[] {
    return this.#tree.all();
  }

  /** Where each shown message with alternatives sits among them. */
  branches(): Record<string, BranchInfo> {
    return this.#tree.branches();
  }

  chatSettings(): ChatSettings {
    return { ...this.#chat };
  }

  pendingApprovals(): ApprovalRequest[] {
    return this.#approvals.pending();
  }

  get running(): boolean {
    return this.#turn !== null;
  }

  /** Returns a disposer. Without any listener, approvals are rejected (no one can answer). */
  onEvent(listener: (event: ChatEvent) => void): () => void {
    return this.#events.event(listener);
  }

  // ── commands ────────────────────────────────────────────────────────────────────────────

  /**
   * Starts a turn: `/tool {json}` runs a tool by hand; anything else goes to the model.
   * `messageId` makes a resend idempotent: a message already stored under that id starts nothing.
   */
  send(text: string, options: { messageId?: string; attachments?: StoredAttachment[]; prompt?: string } = {}): SendResult {
    if (options.messageId && this.#tree.has(options.messageId)) return { ok: true, turnId: 'already-sent', done: Promise.resolve({ turnId: 'already-sent', stopReason: 'stop' }) };
    if (text.trim() === '' && !options.attachments?.length) return { ok: false, error: errorValue('EmptyMessage', 'The message is empty.') };
    return this.#startTurn((signal) => this.#runTurn(text, signal, { parentId: this.#tree.head, ...options }));
  }

  /** Edit: a new user message beside `messageId` (the old one and its continuation stay as a branch), then the model answers. */
  edit(messageId: string, text: string): SendResult {
    const old = this.#tree.get(messageId);
    if (!old || old.role !== 'user') return { ok: false, error: errorValue('NotFoundError', `No user message "${messageId}" in this session.`) };
    if (text.trim() === '' && !old.attachments?.length) return { ok: false, error: errorValue('EmptyMessage', 'The message is empty.') };
    return this.#startTurn((signal) =>
      this.#runTurn(text, signal, { parentId: this.#tree.parentOf(messageId), ...(old.attachments ? { attachments: old.attachments.map((attachment) => ({ attachment })) } : {}) }),
    );
  }

  /**
   * Regenerate (and Retry): the model answers again from the user message before `messageId`
   * (an assistant or tool message, or that user message itself); the old answer stays as a branch.
   */
  regenerate(messageId: string): SendResult {
    if (!this.#tree.has(messageId)) return { ok: false, error: errorValue('NotFoundError', `No message "${messageId}" in this session.`) };
    let userId: string | null = messageId;
    while (userId !== null && this.#tree.get(userId)!.role !== 'user') userId = this.#tree.parentOf(userId);
    if (userId === null) return { ok: false, error: errorValue('NotFoundError', 'There is no user message before this one to answer again.') };
    const from = userId;
    return this.#startTurn(async (signal) => {
      this.#moveHead(from);
      return this.#runModel(signal);
    });
  }

  /** Shows another branch: the newest continuation of `messageId` (one of a message's alternatives). */
  switchBranch(messageId: string): boolean {
    if (this.#turn || !this.#tree.has(messageId)) return false;
    this.#moveHead(this.#tree.latestLeaf(messageId));
    return true;
  }

  /** Deletes one message; what followed it continues from the message before. */
  deleteMessage(messageId: string): boolean {
    if (this.#turn || !this.#tree.has(messageId)) return false;
    this.#file.append({ t: 'delete', at: Date.now(), id: messageId });
    this.#tree.delete(messageId);
    this.#emitPath();
    return true;
  }

  /** Replaces the chat's own model and settings (unset fields fall back to Settings). */
  setChatSettings(chat: ChatSettings): ChatSettings {
    const toolSetChanged = chat.toolSet !== this.#chat.toolSet;
    this.#chat = { ...chat };
    this.executor.setPermissionLevel(this.#permissionLevel());
    if (toolSetChanged) this.#applyEnable(this.#options.settings());
    this.#file.append({ t: 'chat', at: Date.now(), chat: this.#chat });
    this.#emit({ type: 'session.settings', sessionId: this.id, chat: this.chatSettings() });
    return this.chatSettings();
  }

  /** The chat's own level, else its tool set's, else default. */
  #permissionLevel(): PermissionLevel {
    return this.#chat.permissions ?? this.#toolSet()?.level ?? 'default';
  }

  /** `/toolset NAME`: the chat's tool set changes; nothing is recorded or sent. */
  #pickToolSet(command: ToolSetCommand): Omit<TurnOutcome, 'turnId'> {
    if (!command.ok) return { stopReason: 'error', error: errorValue('UnknownToolSet', command.message) };
    const { toolSet: _old, ...rest } = this.#chat;
    this.setChatSettings(command.toolSet ? { ...rest, toolSet: command.toolSet } : rest);
    this.#notice('info', command.message);
    return { stopReason: 'stop' };
  }

  #toolSet(): ToolSet | undefined {
    return this.#chat.toolSet ? findToolSet(this.#options.settings(), this.#chat.toolSet) : undefined;
  }

  #startTurn(work: (signal: AbortSignal) => Promise<Omit<TurnOutcome, 'turnId'>>): SendResult {
    if (this.#closed) return { ok: false, error: errorValue('SessionClosed', `Session ${this.id} is closed.`) };
    if (this.#turn) return { ok: false, error: errorValue('SessionBusy', 'A turn is already running in this session; wait for it or abort it.') };
    const turn = { id: newId('turn'), controller: new AbortController() };
    this.#turn = turn;
    this.#emit({ type: 'session.turn', sessionId: this.id, turnId: turn.id, state: 'started' });
    const done = work(turn.controller.signal)
      .catch((error: unknown): Omit<TurnOutcome, 'turnId'> => ({
        stopReason: 'error',
        // A file that cannot be written (a full disk) is the user's to fix: its one line, not a stack.
        error: error instanceof FileError ? errorValue(error.name, error.message) : errorValue('InternalError', String((error as Error)?.stack ?? error)),
      }))
      .then((outcome) => {
        this.#turn = null;
        const finished: TurnOutcome = { turnId: turn.id, ...outcome };
        this.#emit({ type: 'session.turn', sessionId: this.id, turnId: turn.id, state: 'finished', stopReason: outcome.stopReason, ...(outcome.error ? { error: outcome.error } : {}) });
        return finished;
      });
    return { ok: true, turnId: turn.id, done };
  }

  /** Aborts the running turn: the stream stops, running tools get the signal, pending approvals are rejected. */
  abort(): boolean {
    if (!this.#turn) return false;
    this.#turn.controller.abort(new Error('aborted by the user'));
    return true;
  }

  /**
   * Cancels one running tool call (by the callId of its `tool.started` event): the tool gets the
   * abort signal and ends with an ERROR result saying so, which the model receives; the turn goes
   * on. False when no such call is running (it already finished).
   */
  cancelToolCall(callId: string): boolean {
    const controller = this.#runningCalls.get(callId);
    if (!controller) return false;
    controller.abort(new Error('cancelled by the user'));
    return true;
  }

  /** Shows what an MCP server asks as a card; resolves with the answer (cancel when the call or turn ends first). */
  askMcp(request: McpInteractionRequest, signal: AbortSignal): Promise<McpInteractionAnswer> {
    return this.#mcpAsks.ask(request, signal);
  }

  answerMcpInteraction(requestId: string, answer: McpInteractionAnswer): boolean {
    return this.#mcpAsks.answer(requestId, answer);
  }

  pendingMcpInteractions(): McpInteractionRequest[] {
    return this.#mcpAsks.pending();
  }

  /** The provider this chat's turns use (MCP sampling answers with it). */
  provider(): Promise<ProviderResolution> {
    return this.#options.provider();
  }

  /** False when no such request is pending (already answered, or dropped). */
  answerApproval(requestId: string, decision: ApprovalDecision): boolean {
    return this.#approvals.answer(requestId, decision);
  }

  /** Runs a tool by hand (the API's runTool), recorded in the history like `/tool {json}`. */
  async runTool(name: string, args: Record<string, unknown>, rerunOf?: string): Promise<ToolExecuteResult> {
    if (this.#turn || this.#closed) {
      const message = this.#closed ? `Session ${this.id} is closed.` : 'A turn is running in this session; wait for it or abort it.';
      return { status: 'ERROR', error: message, finalText: message };
    }
    const controller = new AbortController();
    this.#turn = { id: newId('turn'), controller };
    try {
      const message = await this.#runCall({ id: newId('call'), name, arguments: JSON.stringify(args) }, controller.signal, true, rerunOf);
      return message.result;
    } finally {
      this.#turn = null;
    }
  }

  /** "Run again": the same tool with the same (or edited) arguments, approval as usual; shown under the first call. */
  async rerunToolCall(callId: string, args?: Record<string, unknown>): Promise<ToolExecuteResult> {
    const first = this.#tree.all().find((m): m is ToolResultMessage => m.role === 'tool' && (m.callId === callId || m.result.callId === callId));
    if (!first) {
      const message = `No finished tool call "${callId}" in this session to run again.`;
      return { status: 'NOT_FOUND', error: message, finalText: message };
    }
    // "The same arguments" are the ones it ran with: the user's edits, when there were any.
    return this.runTool(first.toolName, args ?? first.result.editedArgs ?? first.args ?? {}, first.rerunOf ?? first.callId);
  }

  /** This chat's tools (null: the global switches apply). */
  toolSelection(): ChatToolSelection | null {
    return this.#selection ? { tools: [...this.#selection.tools], pinned: [...this.#selection.pinned] } : null;
  }

  /** Stores the chat's choice of tools with the session and applies it from the next request on. */
  setToolSelection(selection: ChatToolSelection | null): ChatToolSelection | null {
    this.#selection = selection === null ? null : normalizeSelection(selection);
    this.#file.append({ t: 'tool-selection', at: Date.now(), selection: this.#selection });
    this.#applyEnable(this.#options.settings());
    return this.toolSelection();
  }

  /** An image one of this session's tool calls returned (only those: not any file of the session). */
  toolImage(stored: string): { mimeType: string; data: string } | null {
    // Calls of a step still running are not in the history yet, but the chat shows them already.
    let mimeType = this.#newToolImages.get(stored);
    for (const message of this.#tree.all()) {
      if (mimeType) break;
      if (message.role === 'tool') mimeType = message.result.images?.find((i) => i.stored === stored)?.mimeType;
    }
    const bytes = mimeType ? this.attachments.read(stored) : null;
    return mimeType && bytes ? { mimeType, data: bytes.toString('base64') } : null;
  }

  /** Validates arguments like a call would (`$VAR_REF`, schema), without running anything. */
  checkToolArgs(name: string, args: Record<string, unknown>): { ok: boolean; message?: string } {
    const checked = this.executor.checkArgs(name, args);
    return checked.ok ? { ok: true } : { ok: false, message: checked.message };
  }

  rename(title: string): SessionInfo {
    const clean = title.trim() || DEFAULT_TITLE;
    this.#titled = true;
    this.#file.append({ t: 'title', at: Date.now(), title: clean });
    return this.info;
  }

  /** Aborts what runs, rejects pending approvals, detaches listeners. `discard`: write nothing more. */
  close(options: { discard?: boolean } = {}): void {
    if (options.discard) this.#file.stopWriting();
    if (this.#closed) return;
    this.#closed = true;
    this.abort();
    this.executor.close();
    void this.executor.notifySession('shutdown');
    for (const dispose of this.#disposers.splice(0)) dispose();
    this.#events.dispose();
  }

  // ── the agent loop ──────────────────────────────────────────────────────────────────────

  async #runTurn(
    text: string,
    signal: AbortSignal,
    options: { parentId: string | null; messageId?: string; attachments?: StoredAttachment[]; prompt?: string },
  ): Promise<Omit<TurnOutcome, 'turnId'>> {
    // A prompt's text is the server's, taken as it is: a `/tool` or `$VAR_REF` in it is just text.
    const verbatim = options.prompt !== undefined;
    const toolSetCommand = verbatim ? null : parseToolSetCommand(text, this.#options.settings());
    if (toolSetCommand) return this.#pickToolSet(toolSetCommand);
    // Checked before anything is recorded or sent: an unknown /tool or $VAR_REF never reaches the model.
    const early = verbatim ? null : parseSlashCommand(text);
    if (early && !this.executor.getTool(early.name) && early.name !== FIND_TOOLS) {
      return { stopReason: 'error', error: errorValue('UnknownTool', unknownToolAnswer(early.name, this.executor.getEnabledToolDefinitions())) };
    }
    const expanded = early || verbatim ? { ok: true as const, text, refs: [] } : expandUserVarRefs(text, this.variables);
    if (!expanded.ok) return { stopReason: 'error', error: errorValue('UnknownVariable', expanded.error) };
    const id = options.messageId ?? newId('msg');
    const attachments = (options.attachments ?? []).map((stored, index) => this.#keepAttachmentText(stored, id, index));
    const user: UserMessage = { id, role: 'user', content: expanded.text, createdAt: Date.now(), ...(attachments.length ? { attachments } : {}), ...(verbatim ? { prompt: options.prompt! } : {}) };
    if (expanded.refs.length > 0) {
      user.typedContent = text;
      user.varRefs = expanded.refs;
    }
    if (options.parentId !== this.#tree.head) this.#moveHead(options.parentId);
    this.#append(user);
    if (!this.#titled) {
      this.#titled = true;
      const title = titleFromMessage(text);
      if (title !== this.info.title) this.#file.append({ t: 'title', at: Date.now(), title });
    }

    const resolution = await this.#options.provider(this.#chat);
    const slash = verbatim ? null : parseSlashCommand(text);
    const slashTool = slash && (this.executor.getTool(slash.name) ?? (slash.name === FIND_TOOLS ? true : undefined));
    // A slash command runs when the tool exists, or when there is no model to ask anyway.
    if (slash && (slashTool || !resolution.ok)) {
      const call: LlmToolCall = { id: newId('call'), name: slash.name, arguments: slash.ok ? JSON.stringify(slash.args) : '' };
      if (!slash.ok) {
        this.#append(this.#toolMessage(call, {}, { status: 'ERROR', error: slash.error, finalText: slash.error }));
        return { stopReason: 'error', error: errorValue('InvalidArguments', slash.error) };
      }
      const message = await this.#runCall(call, signal);
      if (signal.aborted) return { stopReason: 'aborted' };
      return message.result.status === 'SUCCESS' ? { stopReason: 'stop' } : { stopReason: 'error', error: errorValue(message.result.status, message.result.error ?? message.content) };
    }
    if (!resolution.ok) return { stopReason: 'error', error: errorValue('NoProvider', resolution.reason) };
    return this.#runModel(signal, resolution);
  }

  /** The model loop from the current head: answers, tool calls and their results until a final answer. */
  async #runModel(signal: AbortSignal, resolved?: ProviderResolution): Promise<Omit<TurnOutcome, 'turnId'>> {
    const resolution = resolved ?? (await this.#options.provider(this.#chat));
    if (!resolution.ok) return { stopReason: 'error', error: errorValue('NoProvider', resolution.reason) };
    const { provider, config } = resolution;
    const model = this.#chat.model && (!this.#chat.providerId || this.#chat.providerId === config.id) ? this.#chat.model : config.model;
    const maxSteps = Math.max(1, this.#options.settings().limits.maxSteps);
    for (let step = 1; step <= maxSteps; step++) {
      const { tools, rule } = this.#offeredTools();
      const userPrompt = this.#chat.systemPrompt ?? this.#options.settings().systemPrompt;
      const system = tools.length > 0 ? [userPrompt, this.executor.toolRules(), rule ?? ''].filter((s) => s.trim()).join('\n\n') : userPrompt;
      const messageId = newId('msg');
      const request = {
        messages: toLlmMessages(
          system,
          this.#tree.path(),
          (message) => this.attachments.parts(message),
          // Tools' images only to models known to take them: a text model would refuse the whole request.
          acceptsImages(model) ? (message) => this.attachments.toolImageParts(message) : undefined,
        ),
        model,
        ...(tools.length ? { tools } : {}),
        ...(this.#chat.temperature !== undefined ? { temperature: this.#chat.temperature } : {}),
        ...(this.#chat.maxTokens !== undefined ? { maxTokens: this.#chat.maxTokens } : {}),
      };
      const clock: StepClock = { startedAt: Date.now() };
      const result = await streamAssistantStep(provider, request, signal, {
        onDelta: (delta) => {
          clock.firstTokenAt ??= Date.now();
          this.#emit({ type: 'session.delta', sessionId: this.id, messageId, ...delta });
        },
        onRetry: (message) => this.#notice('info', message),
      });
      const assistant: AssistantMessage = {
        id: messageId,
        role: 'assistant',
        content: result.content,
        createdAt: Date.now(),
        model,
        providerId: config.id,
        timing: stepTiming(clock, Date.now(), result.usage),
        stopReason: assistantStopReason(result),
        ...(result.reasoning ? { reasoning: result.reasoning } : {}),
        ...(result.toolCalls.length ? { toolCalls: result.toolCalls.map(toChatToolCall) } : {}),
        ...(result.usage ? { usage: result.usage } : {}),
        ...(result.error && result.error.kind !== 'aborted' ? { error: errorValue(`llm.${result.error.kind}`, result.error.message) } : {}),
      };
      // Tool calls of a failed or aborted stream are incomplete: never run them.
      if (result.error) delete assistant.toolCalls;
      if (assistant.content || assistant.reasoning || assistant.toolCalls || assistant.error) this.#append(assistant);
      if (result.error) {
        return result.error.kind === 'aborted' ? { stopReason: 'aborted' } : { stopReason: 'error', error: errorValue(`llm.${result.error.kind}`, result.error.message) };
      }
      if (result.toolCalls.length === 0) return { stopReason: assistant.stopReason === 'length' ? 'length' : 'stop' };

      // Parallel calls run concurrently, each with its own approval; results go back in call order.
      const results = await Promise.all(result.toolCalls.map((call) => this.#runCall(call, signal, false)));
      for (const message of results) this.#append(message);
      if (signal.aborted) return { stopReason: 'aborted' };
    }
    const message = `Stopped after ${maxSteps} model steps (the limit is limits.maxSteps in the settings).`;
    return { stopReason: 'max-steps', error: errorValue('MaxSteps', message) };
  }

  /** Runs one call through the executor with events; appends its message unless told not to. */
  async #runCall(call: LlmToolCall, signal: AbortSignal, append = true, rerunOf?: string): Promise<ToolResultMessage> {
    // Variables are named after the call id: keep them unique within the session.
    let callId = call.id;
    for (let n = 2; this.#usedCallIds.has(callId); n++) callId = `${call.id}_${n}`;
    this.#usedCallIds.add(callId);
    const display = toChatToolCall(call);
    const groupName = this.#groupOf(call.name);
    const tool = this.executor.getTool(call.name);
    let summary: string | undefined;
    try {
      summary = tool?.compressArgs?.(display.args);
    } catch {
      summary = undefined;
    }
    this.#emit({ type: 'tool.started', sessionId: this.id, callId: call.id, toolName: call.name, groupName, args: display.args, ...(summary ? { summary } : {}), ...(rerunOf ? { rerunOf } : {}) });
    // Its own controller, so cancelToolCall stops this call and not the turn.
    const controller = new AbortController();
    this.#runningCalls.set(call.id, controller);
    const preset = this.#answeredHere(call, display.args, callId);
    const result =
      preset ??
      (await this.executor
        .execute(call.name, call.arguments, {
          callId,
          signal: AbortSignal.any([signal, controller.signal]),
          onUpdate: (update) => this.#emit({ type: 'tool.progress', sessionId: this.id, callId: call.id, update }),
        })
        .finally(() => {
          if (this.#runningCalls.get(call.id) === controller) this.#runningCalls.delete(call.id);
        }));
    if (preset) this.#runningCalls.delete(call.id);
    // Stopped by the user (this call's Cancel, or the turn's Stop): "cancelled", not a failure.
    if (result.status !== 'SUCCESS' && (controller.signal.aborted || signal.aborted)) result.cancelled = true;
    // Image bytes go to files of the session; the result keeps their names.
    if (result.images?.length) result.images = this.#keepToolImages(result.images, callId);
    // Events, history and the file all carry the bounded result: what a reopened session shows.
    const bounded = boundToolResult(result, this.#options.storedResult);
    this.#emit({ type: 'tool.finished', sessionId: this.id, callId: call.id, toolName: call.name, result: bounded.result });
    this.#persistApprovalMemory();
    const message = this.#toolMessage(call, display.args, bounded.result, groupName);
    if (bounded.cut) message.cut = bounded.cut;
    if (rerunOf) message.rerunOf = rerunOf;
    if (append) this.#append(message);
    return message;
  }

  #toolMessage(call: LlmToolCall, args: Record<string, unknown>, result: ToolExecuteResult, groupName?: string): ToolResultMessage {
    return {
      id: newId('msg'),
      role: 'tool',
      createdAt: Date.now(),
      callId: call.id,
      toolName: call.name,
      ...(groupName ? { groupName } : {}),
      args,
      content: result.finalText ?? result.error ?? '',
      result,
    };
  }

  /** Calls the chat answers itself: FindTools, and tools this chat's selection leaves out. */
  #answeredHere(call: LlmToolCall, args: Record<string, unknown>, callId: string): ToolExecuteResult | undefined {
    const started = performance.now();
    let result: ToolExecuteResult | undefined;
    if (call.name === FIND_TOOLS && !this.executor.getTool(FIND_TOOLS)) {
      result = this.#budget.find(args, this.executor.getEnabledToolDefinitions());
    } else {
      const refusal = selectionRefusal(this.executor, this.#selection, call.name);
      if (refusal) result = { toolName: call.name, status: 'ERROR', error: refusal, finalText: refusal };
    }
    if (!result) return undefined;
    result.callId = callId;
    result.durationMs = performance.now() - started;
    return result;
  }

  /** The definitions one request carries: all enabled ones, or FindTools and a few when they exceed the budget. */
  #offeredTools(): { tools: ReturnType<ToolExecutor['getEnabledToolDefinitions']>; rule?: string } {
    const all = this.executor.getEnabledToolDefinitions();
    const pinnedNames = new Set(this.#selection?.pinned ?? []);
    const pinned = new Set<string>();
    if (pinnedNames.size > 0) {
      for (const group of this.executor.listGroups()) for (const tool of group.tools) if (pinnedNames.has(tool.name)) pinned.add(tool.modelName);
    }
    const budget = this.#options.settings().limits.toolDefinitionBudgetChars ?? DEFAULT_LIMITS.toolDefinitionBudgetChars;
    const offered = this.#budget.offer(all, pinned, budget);
    return offered.rule ? { tools: offered.tools, rule: offered.rule } : { tools: offered.tools };
  }

  // ── approval memory ───────────────────────────────────────────────────────────────────────────

  #persistApprovalMemory(): void {
    const data = this.executor.exportApprovalMemory();
    const json = JSON.stringify(data);
    if (json === this.#approvalMemoryJson) return;
    this.#approvalMemoryJson = json;
    this.#file.append({ t: 'approval-memory', at: Date.now(), data });
  }

  // ── tools and enable state ──────────────────────────────────────────────────────────────

  /** The global switches, then this chat's own choice on top. */
  #applyEnable(settings: Settings): void {
    applyEnableState(this.executor, settings);
    if (this.#selection) applyToolSelection(this.executor, this.#selection);
    const set = this.#toolSet();
    if (set) applyToolSet(this.executor, set);
  }

  #groupOf(name: string): string {
    for (const group of this.executor.listGroups()) {
      if (group.tools.some((t) => t.name === name || t.modelName === name)) return group.name;
    }
    return '';
  }

  // ── persistence and events ──────────────────────────────────────────────────────────────

  #append(message: ChatMessage): void {
    message.parentId = this.#tree.head;
    this.#tree.add(message);
    this.#file.append({ t: 'message', at: message.createdAt, message });
    const branch = this.#tree.branchOf(message.id);
    this.#emit({ type: 'session.message', sessionId: this.id, message, ...(branch ? { branch } : {}) });
  }

  #keepToolImages(images: NonNullable<ToolExecuteResult['images']>, callId: string): NonNullable<ToolExecuteResult['images']> {
    try {
      const kept = this.attachments.storeToolImages(images, `tool-${callId}`);
      for (const image of kept) if (image.stored) this.#newToolImages.set(image.stored, image.mimeType);
      return kept;
    } catch (error) {
      // A full disk loses the images, not the result.
      const note = `not kept: ${(error as Error).message}`;
      return images.map(({ data: _bytes, ...image }) => ({ ...image, note }));
    }
  }

  /** A text or PDF attachment's whole text goes into a variable the model can read in slices. */
  #keepAttachmentText(stored: StoredAttachment, messageId: string, index: number): Attachment {
    if (stored.text === undefined) return stored.attachment;
    const name = `attachment_${messageId.replace(/[^A-Za-z0-9_]/g, '_')}_${index + 1}`;
    this.variables.add(name, stored.text, 'USER_ADD', { desc: `Text of the attached file ${stored.attachment.name}`, tags: ['attachment'] });
    return { ...stored.attachment, variable: name };
  }

  /** Moves the shown branch's end (recorded, so a reopened session shows the same branch). */
  #moveHead(id: string | null): void {
    this.#tree.setHead(id);
    this.#file.append({ t: 'head', at: Date.now(), id });
    this.#emitPath();
  }

  #emitPath(): void {
    this.#emit({ type: 'session.path', sessionId: this.id, messages: this.#tree.path(), branches: this.#tree.branches() });
  }

  #notice(level: 'info' | 'warning', message: string): void {
    this.#emit({ type: 'session.notice', sessionId: this.id, level, message });
  }

  #emit(event: ChatEvent): void {
    this.#events.fire(event);
    // The manager's fan-out: an emitter's fire, which never throws.
    this.#options.forward?.(event);
  }
}
