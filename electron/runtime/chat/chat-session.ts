// A chat session: its history (session-history.ts: the message tree, written, then announced), file
// and events; callers use its methods, never its parts. Its tools are a ToolSession (its variables
// are the session's); calls run in chat-tool-calls.ts, turns in chat-turn.ts (over agent-loop.ts);
// branch commands in session-branches.ts, the title in session-title.ts, `/toolset` in
// toolset-command.ts, questions to the user in session-asks.ts. All is persisted as it happens.
import { randomUUID } from 'node:crypto';
import type { BranchInfo, ChatEvent, ChatMessage, ChatSettings, ErrorValue, SessionFlags, SessionInfo, TurnInterruption } from '../../../shared/chat.ts';
import type { ApprovalDecision, ApprovalRequest, ToolExecuteResult } from '../../../shared/tools.ts';
import type { McpInteractionAnswer, McpInteractionRequest } from '../../../shared/mcp.ts';
import type { AttachmentUpload } from '../../../shared/api.ts';
import type { ProviderResolution } from '../llm/resolve-provider.ts';
import type { ProviderConfig } from '../../../shared/settings.ts';
import { chatModel, runContinuedTurn, runModelTurn, runUserTurn, type TurnHost, type TurnResult } from './turn/chat-turn.ts';
import { deleteMessage, editMessage, regenerateFrom, switchBranch, type BranchPorts } from './session-branches.ts';
import { SessionTitle } from './titles/session-title.ts';
import { interruptionOf } from './turn/turn-interruption.ts';
import { Emitter } from '../base/emitter.ts';
import type { ToolSession } from '../tools/tool-session.ts';
import type { SessionFile } from './persistence/session-file.ts';
import type { ChatSessionOptions } from './chat-session-options.ts';
export type { ChatSessionOptions } from './chat-session-options.ts';
import { sessionAsks, type SessionAsks } from './session-asks.ts';
import { ChatToolCalls, rerunOf } from './tool-calls/chat-tool-calls.ts';
import type { SessionRecord } from './persistence/session-records.ts';
import { toolConversation } from './tool-calls/tool-conversation.ts';
import { parseToolSetCommand, pickToolSet } from './commands/toolset-command.ts';
import { AppModelContext } from '../apps/app-model-context.ts';
import { sessionVariables } from './persistence/variable-journal.ts';
import type { ChatToolSelection } from '../../../shared/tool-selection.ts';
import { normalizeSelection } from '../tools/tool-selection.ts';
import { MessageTree } from './message-tree.ts';
import { SessionHistory } from './session-history.ts';
import { SessionAttachments, type StoredAttachment } from './persistence/session-attachments.ts';
import type { SendResult } from './turn/turn-gate.ts';
import { SessionTurns } from './turn/session-turns.ts';
export type { SendResult, TurnOutcome } from './turn/turn-gate.ts';

const newId = (prefix: string) => `${prefix}-${randomUUID().replace(/-/g, '').slice(0, 12)}`;
const errorValue = (name: string, message: string): ErrorValue => ({ name, message });

export class ChatSession {
  readonly id: string;
  readonly tools: ToolSession;
  readonly #file: SessionFile;
  readonly #options: ChatSessionOptions;
  readonly #history: SessionHistory;
  #chat: ChatSettings;
  readonly #events: Emitter<ChatEvent>;
  /** Tool approvals, and what MCP servers ask during a call (elicitation, sampling): cards in the chat. */
  readonly #asks: SessionAsks;
  readonly #disposers: Array<() => void> = [];
  readonly #attachments: SessionAttachments;
  /** What apps of this chat asked the model to see (`ui/update-model-context`). */
  readonly #appContext = new AppModelContext();
  readonly #calls: ChatToolCalls;
  /** The turn gate, the turn records and a turn a restart cut off. */
  readonly #turns: SessionTurns;
  readonly #title: SessionTitle;
  /** Ends a title request still running when the session closes. */
  readonly #closing = new AbortController();
  #closed = false;

  constructor(options: ChatSessionOptions) {
    this.#options = options;
    this.#events = new Emitter({ onListenerError: (error) => options.log?.(`A session event listener failed: ${(error as Error).message}`) });
    this.#file = options.file;
    this.id = options.file.id;
    const state = options.state;
    this.#attachments = new SessionAttachments(options.file.dir, this.id);
    this.#history = new SessionHistory(state?.tree ?? new MessageTree(), { sessionId: this.id, file: this.#file, emit: (event) => this.#emit(event) });
    this.#chat = state?.chat ?? {};
    const turns = { sessionId: this.id, newId, closedReason: () => (this.#closed ? `Session ${this.id} is closed.` : undefined), emit: (event: ChatEvent) => this.#emit(event) };
    this.#turns = new SessionTurns({ ...turns, record: (record) => this.#file.append(record), file: this.#file.log, ...(options.log ? { log: options.log } : {}) }, state ? interruptionOf(state, this.#history.tree.path()) : undefined);
    const title = { current: () => this.info.title, path: () => this.#history.tree.path(), chat: () => this.#chat, closing: this.#closing.signal };
    const titleModel = { provider: options.provider, model: (chat: ChatSettings, resolution: { config: ProviderConfig }) => chatModel(chat, resolution.config) };
    this.#title = new SessionTitle({ ...title, ...titleModel, record: (record) => this.#file.append(record) }, this.#history.tree.all().some((m) => m.role === 'user'));
    const { variables, journal } = sessionVariables(state?.variables ?? [], options.settings().limits);
    this.#asks = sessionAsks({
      sessionId: this.id,
      // Someone listening to this session or to the manager (a window, a terminal, the host).
      canAsk: () => this.#events.size > 0 || Boolean(options.hasApprover?.()),
      emit: (event) => this.#emit(event),
      record: (record) => this.#file.append(record),
    });
    this.tools = options.toolSession({
      sessionId: this.id,
      variables,
      approve: (request, signal) => this.#asks.approvals.ask(request, signal),
      selection: normalizeSelection(state?.toolSelection),
      ...(this.#chat.toolSet ? { toolSet: this.#chat.toolSet } : {}),
      ...(this.#chat.permissions ? { permissionLevel: this.#chat.permissions } : {}),
      ...(this.#chat.skillsOff ? { skillsOff: this.#chat.skillsOff } : {}),
      log: (message) => this.#notice('warning', message),
    });
    // Reopened: the skills it activated are active again (their accepted tool sets apply).
    this.tools.restoreActivity(this.messages().flatMap((m) => (m.role === 'tool' ? [{ toolName: m.toolName, content: m.content, status: m.result.status }] : [])));
    if (state?.approvalMemory) this.tools.importApprovalMemory(state.approvalMemory);
    const { storedResult, settings } = options;
    const record = (entry: SessionRecord) => this.#file.append(entry);
    const conversation = () => toolConversation(this.messages(), this.#chat.model, this.#attachments.dir);
    const ports = { sessionId: this.id, tools: this.tools, attachments: this.#attachments, settings, record, newId, conversation, emit: (event: ChatEvent) => this.#emit(event) };
    this.#calls = new ChatToolCalls({ ...ports, ...(storedResult ? { storedResult } : {}) }, this.#history.tree.all(), state?.foundTools);
    this.#disposers.push(journal(record, () => this.#emit({ type: 'variables.changed', sessionId: this.id })));
  }

  get info(): SessionInfo {
    return this.#file.info;
  }

  /** The shown branch, root → head. */
  messages(): ChatMessage[] {
    return this.#history.tree.path();
  }

  /** Every message, other branches included, in the order they were written. */
  allMessages(): ChatMessage[] {
    return this.#history.tree.all();
  }

  /** Where each shown message with alternatives sits among them. */
  branches(): Record<string, BranchInfo> {
    return this.#history.tree.branches();
  }

  chatSettings(): ChatSettings {
    return { ...this.#chat };
  }

  pendingApprovals(): ApprovalRequest[] {
    return this.#asks.approvals.pending();
  }

  /** What MCP servers asked during this chat's calls (elicitation, sampling) and wait for an answer. */
  pendingMcpInteractions(): McpInteractionRequest[] {
    return this.#asks.mcp.pending();
  }

  /** The turn a restart cut off (shown "Interrupted" with Continue and Retry), or undefined. */
  interruption(): TurnInterruption | undefined {
    return this.#turns.interruption();
  }

  get running(): boolean {
    return this.#turns.gate.running;
  }

  /** Returns a disposer. Without any listener, approvals are rejected (no one can answer). */
  onEvent(listener: (event: ChatEvent) => void): () => void {
    return this.#events.event(listener);
  }

  /**
   * Starts a turn: `/tool {json}` runs a tool by hand; anything else goes to the model.
   * `messageId` makes a resend idempotent; `parentId: null` starts a new branch (a scheduled run).
   */
  send(text: string, options: { messageId?: string; attachments?: StoredAttachment[]; prompt?: string; parentId?: string | null } = {}): SendResult {
    if (options.messageId && this.#history.tree.has(options.messageId)) return { ok: true, turnId: 'already-sent', done: Promise.resolve({ turnId: 'already-sent', stopReason: 'stop' }) };
    if (text.trim() === '' && !options.attachments?.length) return { ok: false, error: errorValue('EmptyMessage', 'The message is empty.') };
    return this.#turns.gate.start((signal) => this.#runTurn(text, signal, { parentId: this.#history.tree.head, ...options }));
  }

  /** Edit: a new user message beside `messageId` (the old one stays as a branch), then the model answers. */
  edit(messageId: string, text: string): SendResult {
    return editMessage(this.#branchPorts, messageId, text);
  }

  /** Regenerate (and Retry): the model answers again from the user message before `messageId`. */
  regenerate(messageId: string): SendResult {
    return regenerateFrom(this.#branchPorts, messageId);
  }

  /**
   * Continue: goes on with the interrupted turn. The calls it left are asked again (none reruns
   * without the user's yes), then the model answers from there.
   */
  continueTurn(): SendResult {
    const interruption = this.#turns.interruption();
    if (!interruption) return { ok: false, error: errorValue('NotInterrupted', 'No turn of this session was interrupted; there is nothing to continue. Send a message instead.') };
    return this.#turns.gate.start((signal) => runContinuedTurn(this.#turnHost, interruption, signal));
  }

  /** Shows another branch: the newest continuation of `messageId` (one of a message's alternatives). */
  switchBranch(messageId: string): boolean {
    return switchBranch(this.#branchPorts, messageId);
  }

  /** Deletes one message; what followed it continues from the message before. */
  deleteMessage(messageId: string): boolean {
    return deleteMessage(this.#branchPorts, messageId);
  }

  /** Replaces the chat's own model and settings (unset fields fall back to Settings). */
  setChatSettings(chat: ChatSettings): ChatSettings {
    const picked = chat.toolSet !== undefined && chat.toolSet !== this.#chat.toolSet;
    this.#chat = { ...chat };
    this.tools.setToolSet(chat.toolSet);
    const absent = picked ? this.tools.toolSetWarning() : undefined;
    if (absent) this.#notice('warning', absent);
    this.tools.setPermissionLevel(chat.permissions);
    this.tools.setSkillsOff(chat.skillsOff);
    this.#file.append({ t: 'chat', at: Date.now(), chat: this.#chat });
    this.#emit({ type: 'session.settings', sessionId: this.id, chat: this.chatSettings() });
    return this.chatSettings();
  }

  /** Aborts the running turn: the stream stops, running tools get the signal, pending approvals are rejected. */
  abort(): boolean {
    return this.#turns.gate.abort();
  }

  /**
   * Cancels one running tool call (by the callId of its `tool.started` event): the tool gets the
   * abort signal and ends with an ERROR result saying so, which the model receives; the turn goes
   * on. False when no such call is running (it already finished).
   */
  cancelToolCall(callId: string): boolean {
    return this.#calls.cancel(callId);
  }

  /** The provider this chat's turns use (MCP sampling answers with it). */
  provider(): Promise<ProviderResolution> {
    return this.#options.provider();
  }

  /** False when no such request is pending (already answered, or dropped). */
  answerApproval(requestId: string, decision: ApprovalDecision): boolean {
    return this.#asks.approvals.answer(requestId, decision);
  }

  /** Shows what an MCP server asks as a card in this chat; never rejects (no one there: declined). */
  askMcp(request: McpInteractionRequest, signal?: AbortSignal): Promise<McpInteractionAnswer> {
    return this.#asks.mcp.ask(request, signal);
  }

  /** False when no such question is pending (already answered, or dropped). */
  answerMcpInteraction(requestId: string, answer: McpInteractionAnswer): boolean {
    return this.#asks.mcp.answer(requestId, answer);
  }

  /** Keeps an upload beside the session for a message to send; throws with a message naming the file. */
  storeAttachment(upload: AttachmentUpload, prefix: string): Promise<StoredAttachment> {
    return this.#attachments.store(upload, prefix);
  }

  /** What an app of this chat asks the model to see from the next request on (empty text clears it). */
  updateModelContext(appCallId: string, label: string, text: string): { chars: number; truncated: boolean } {
    return this.#appContext.set(appCallId, label, text);
  }

  /**
   * Runs a tool by hand (the API's runTool), recorded in the history like `/tool {json}`. A turn
   * running refuses it, unless `wait` is given: then it queues behind the turn until `wait` aborts.
   */
  async runTool(name: string, args: Record<string, unknown>, rerunOf?: string, fromApp?: string, wait?: AbortSignal): Promise<ToolExecuteResult> {
    const call = { id: newId('call'), name, arguments: JSON.stringify(args) };
    return this.#calls.runByHand(this.#turns.gate, call, (message) => this.#history.append(message), { ...(rerunOf ? { rerunOf } : {}), ...(fromApp ? { fromApp } : {}), ...(wait ? { wait } : {}) });
  }

  /** "Run again": the same tool with the same (or edited) arguments, approval as usual; shown under the first call. */
  async rerunToolCall(callId: string, args?: Record<string, unknown>): Promise<ToolExecuteResult> {
    const again = rerunOf(this.#history.tree.all(), callId, args);
    return 'status' in again ? again : this.runTool(again.name, again.args, again.rerunOf);
  }

  /** This chat's tools (null: the global switches apply). */
  toolSelection(): ChatToolSelection | null {
    return this.tools.selection();
  }

  /** Stores the chat's choice of tools with the session and applies it from the next request on. */
  setToolSelection(selection: ChatToolSelection | null): ChatToolSelection | null {
    const kept = this.tools.setSelection(selection);
    this.#file.append({ t: 'tool-selection', at: Date.now(), selection: kept });
    return kept;
  }

  /** An image one of this session's tool calls returned (only those: not any file of the session). */
  toolImage(stored: string): { mimeType: string; data: string } | null {
    return this.#calls.image(stored, this.#history.tree.all());
  }

  /** Validates arguments like a call would (`$VAR_REF`, schema), without running anything. */
  checkToolArgs(name: string, args: Record<string, unknown>): { ok: boolean; message?: string } {
    const checked = this.tools.checkArgs(name, args);
    return checked.ok ? { ok: true } : { ok: false, message: checked.message };
  }

  /** Pins or archives the chat (sidebar flags); an absent field stays as it is. */
  setFlags(flags: SessionFlags): SessionInfo {
    this.#file.append({ t: 'flags', at: Date.now(), ...(flags.pinned !== undefined ? { pinned: flags.pinned } : {}), ...(flags.archived !== undefined ? { archived: flags.archived } : {}) });
    return this.info;
  }

  rename(title: string): SessionInfo {
    this.#title.rename(title);
    return this.info;
  }

  /** Aborts what runs, rejects pending approvals, detaches listeners. `discard`: write nothing more. */
  close(options: { discard?: boolean } = {}): void {
    if (options.discard) this.#file.stopWriting();
    if (this.#closed) return;
    this.#closed = true;
    const cut = this.#turns.gate.running;
    this.#closing.abort();
    this.abort();
    this.tools.close();
    const closed = new Error('session closed');
    this.#asks.rejectAll(closed);
    // A turn cut by closing (the app quits) writes nothing after its dropped questions (written above,
    // still unanswered): reopened, it shows "Interrupted" and can go on instead of ending aborted.
    if (cut) this.#file.stopWriting();
    void this.tools.notifySession('shutdown');
    for (const dispose of this.#disposers.splice(0)) dispose();
    this.#events.dispose();
  }

  #runTurn(text: string, signal: AbortSignal, options: { parentId: string | null; messageId?: string; attachments?: StoredAttachment[]; prompt?: string }): Promise<TurnResult> {
    // `/toolset NAME` picks the chat's tool set: nothing is recorded or sent.
    const picked = options.prompt === undefined ? parseToolSetCommand(text, this.#options.settings()) : null;
    if (picked) return Promise.resolve(pickToolSet(picked, { chat: () => this.#chat, setChatSettings: (chat) => this.setChatSettings(chat), notice: (message) => this.#notice('info', message) }));
    let firstWords: string | undefined;
    const turn = runUserTurn(this.#turnHost, text, { ...options, messageId: options.messageId ?? newId('msg') }, signal, (user) => {
      if (options.parentId !== this.#history.tree.head) this.#history.moveHead(options.parentId);
      this.#history.append(user);
      firstWords = this.#title.firstMessage(text);
    });
    // The first exchange's title by the model starts after the turn and is not awaited by it.
    return turn.then((result) => {
      if (firstWords !== undefined && result.stopReason === 'stop') void this.#title.byModel(firstWords);
      return result;
    });
  }

  get #branchPorts(): BranchPorts {
    const runs = { runUserTurn: this.#runTurn.bind(this), runModelTurn: (signal: AbortSignal) => runModelTurn(this.#turnHost, signal) };
    const history = { moveHead: (id: string | null) => this.#history.moveHead(id), pathChanged: () => this.#history.pathChanged() };
    return { tree: this.#history.tree, turns: this.#turns.gate, ...runs, ...history, endInterruption: () => this.#turns.endInterruption(), record: (r) => this.#file.append(r) };
  }

  get #turnHost(): TurnHost {
    const { settings, provider } = this.#options;
    const delta = (messageId: string, part: { text?: string; reasoning?: string }) => this.#emit({ type: 'session.delta', sessionId: this.id, messageId, ...part });
    const own = { tools: this.tools, calls: this.#calls, attachments: this.#attachments, appContext: this.#appContext, settings, provider, delta, newId };
    return { ...own, chat: () => this.#chat, path: () => this.#history.tree.path(), append: (m) => this.#history.append(m), notice: (level, text) => this.#notice(level, text) };
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
