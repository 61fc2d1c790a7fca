// The one reducer: server events → renderer state. Pure (no I/O, time comes in as `now`);
// called inside Solid's produce() in the app and on plain objects in tests.
import type { ApiEvent, SessionSnapshot } from '../../../shared/api.ts';
import type { AssistantMessage, BranchInfo, ChatMessage, ToolResultMessage, TurnInterruption } from '../../../shared/chat.ts';
import type { ApprovalRequest, ToolExecuteStatus } from '../../../shared/tools.ts';
import { emptyChat, MAX_TOOL_TOASTS, type AppState, type ChatState, type Row, type ToolCallState, type ToolCallStatus } from './app-state.ts';

export function applyEvent(event: ApiEvent, state: AppState, now = Date.now()): void {
  switch (event.type) {
    case 'sessions.changed':
      state.sessions = event.sessions;
      return;
    case 'tools.changed':
      state.tools = event.tools;
      return;
    case 'settings.changed':
      state.settings = event.settings;
      return;
    case 'mcp.changed':
      return; // Settings → MCP servers subscribes itself (nothing else shows server states)
    case 'schedules.changed':
    case 'schedules.notice':
    case 'schedules.open':
      return; // the Inbox, Settings → Schedules and the notifier subscribe themselves
  }
  const chat = state.chats[event.sessionId];
  if (!chat) return; // not open in this window: openSession() will fetch a snapshot
  switch (event.type) {
    case 'session.message': {
      addMessage(chat, event.message, now);
      const row = findRow(chat, event.message.id);
      if (row && (row.kind === 'user' || row.kind === 'assistant') && event.branch) row.branch = event.branch;
      return;
    }
    case 'session.path': {
      // Edit, Regenerate, a switch or a Delete: the rows become the new path; what runs stays.
      const next = emptyChat(chat.sessionId);
      for (const message of event.messages) addMessage(next, message, now);
      setBranches(next, event.branches);
      chat.rows = next.rows;
      chat.rowIndex = next.rowIndex;
      for (const [id, call] of Object.entries(next.toolCalls)) if (!chat.toolCalls[id]) chat.toolCalls[id] = call;
      return;
    }
    case 'session.settings':
      chat.chat = event.chat;
      return;
    case 'session.delta': {
      const row = findRow(chat, event.messageId);
      if (!row) {
        pushRow(chat, {
          kind: 'assistant',
          id: event.messageId,
          content: event.text ?? '',
          reasoning: event.reasoning ?? '',
          streaming: true,
          callIds: [],
          createdAt: now,
        });
      } else if (row.kind === 'assistant') {
        if (event.text) row.content += event.text;
        if (event.reasoning) row.reasoning += event.reasoning;
      }
      return;
    }
    case 'session.turn':
      if (event.state === 'started') {
        chat.running = true;
        endInterruption(chat);
      } else {
        chat.running = false;
        for (const row of chat.rows) if (row.kind === 'assistant' && row.streaming) row.streaming = false;
        if (event.stopReason === 'error' && event.error) {
          // Shown once: an answer that carries the error shows it in place (with Retry); else a notice.
          const last = chat.rows.at(-1);
          if (!(last?.kind === 'assistant' && last.error?.message === event.error.message)) {
            const from = chat.rows.findLast((r) => r.kind === 'user')?.id;
            pushRow(chat, { kind: 'notice', id: `turn-error:${event.turnId}`, text: event.error.message, tone: 'error', createdAt: now, ...(from ? { retryFrom: from } : {}) });
          }
        }
      }
      return;
    case 'tool.started': {
      const call = ensureCall(chat, event.callId, event.toolName, event.groupName, event.args, now, event.rerunOf, event.fromApp);
      call.toolName = event.toolName;
      call.groupName = event.groupName;
      call.args = event.args;
      if (event.summary !== undefined) call.summary = event.summary;
      if (call.status === 'pending') {
        call.status = 'running';
        call.startedAt = now;
      }
      return;
    }
    case 'tool.progress': {
      const call = chat.toolCalls[event.callId];
      if (call && event.update.text) call.partial += event.update.text;
      const note = event.update.notification;
      if (note) {
        // Unique among the toasts shown: one more than the newest one's number.
        const seq = Number(chat.toasts.at(-1)?.id.split(':').at(-1) ?? 0) + 1;
        chat.toasts = [...chat.toasts, { id: `${event.callId}:${seq}`, level: note.level, text: note.text, toolName: call?.toolName ?? '', createdAt: now }].slice(-MAX_TOOL_TOASTS);
      }
      return;
    }
    case 'tool.finished': {
      const call = ensureCall(chat, event.callId, event.toolName, '', {}, now);
      finishCall(call, event.result, now);
      return;
    }
    case 'approval.requested':
      addApproval(chat, event.request, now);
      return;
    case 'approval.resolved': {
      const request = chat.approvals[event.requestId];
      if (!request) return;
      delete chat.approvals[event.requestId];
      chat.approvalOrder = chat.approvalOrder.filter((id) => id !== event.requestId);
      const call = chat.toolCalls[request.callId];
      if (call && call.status === 'approval' && !hasPendingApproval(chat, request.callId)) {
        if (event.decision === null || event.decision.decision === 'reject') call.status = 'rejected';
        else {
          call.status = 'running';
          if (request.type === 'execution') call.startedAt = now;
        }
      }
      return;
    }
    case 'mcp.interaction.requested':
      if (!chat.mcpAsks.some((r) => r.id === event.request.id)) chat.mcpAsks.push(event.request);
      return;
    case 'mcp.interaction.resolved':
      chat.mcpAsks = chat.mcpAsks.filter((r) => r.id !== event.requestId);
      return;
    case 'variables.changed':
      chat.variablesVersion += 1;
      return;
  }
}

/** Replaces a session's chat state with a snapshot from openSession(). */
export function applySnapshot(snapshot: SessionSnapshot, state: AppState, now = Date.now()): void {
  const chat = emptyChat(snapshot.session.id);
  for (const message of snapshot.messages) addMessage(chat, message, now);
  for (const request of snapshot.pendingApprovals) addApproval(chat, request, now);
  setBranches(chat, snapshot.branches ?? {});
  chat.chat = snapshot.chat ?? {};
  chat.running = snapshot.running;
  chat.toolSelection = snapshot.toolSelection ?? null;
  chat.mcpAsks = [...(snapshot.pendingMcpInteractions ?? [])];
  if (snapshot.interrupted) markInterrupted(chat, snapshot.interrupted, now);
  state.chats[snapshot.session.id] = chat;
  const index = state.sessions.findIndex((s) => s.id === snapshot.session.id);
  if (index >= 0) state.sessions[index] = snapshot.session;
}

/** The turn a restart cut off: its calls say so, and the chat ends with "Interrupted" (Continue, Retry). */
function markInterrupted(chat: ChatState, interruption: TurnInterruption, now: number): void {
  for (const { callId } of interruption.calls) {
    const call = chat.toolCalls[callId];
    if (call && call.status === 'pending') call.status = 'interrupted';
  }
  pushRow(chat, { kind: 'interrupted', id: `interrupted:${interruption.turnId}`, createdAt: now, interruption });
}

/** A turn started (Continue, Retry, a new message): the interruption is over; its calls wait for what the turn does. */
function endInterruption(chat: ChatState): void {
  const row = chat.rows.find((r) => r.kind === 'interrupted');
  if (row?.kind !== 'interrupted') return;
  for (const { callId } of row.interruption.calls) {
    const call = chat.toolCalls[callId];
    if (call?.status === 'interrupted') call.status = 'pending';
  }
  removeRow(chat, row.id);
}

function setBranches(chat: ChatState, branches: Record<string, BranchInfo>): void {
  for (const [id, branch] of Object.entries(branches)) {
    const row = findRow(chat, id);
    if (row && (row.kind === 'user' || row.kind === 'assistant')) row.branch = branch;
  }
}

function addMessage(chat: ChatState, message: ChatMessage, now: number): void {
  if (message.role === 'user') {
    const existing = findRow(chat, message.id);
    if (existing) return;
    // The text as typed (with its $VAR_REFs, shown as chips), not the expansion the model got.
    pushRow(chat, {
      kind: 'user',
      id: message.id,
      content: message.typedContent ?? message.content,
      createdAt: message.createdAt,
      ...(message.varRefs?.length ? { varRefs: message.varRefs } : {}),
      ...(message.attachments ? { attachments: message.attachments } : {}),
      ...(message.prompt ? { prompt: message.prompt } : {}),
    });
  } else if (message.role === 'assistant') {
    addAssistant(chat, message);
  } else {
    addToolResult(chat, message, now);
  }
}

function addAssistant(chat: ChatState, message: AssistantMessage): void {
  const callIds = (message.toolCalls ?? []).map((c) => c.id);
  for (const toolCall of message.toolCalls ?? []) {
    const call = chat.toolCalls[toolCall.id];
    if (!call) {
      chat.toolCalls[toolCall.id] = newCall(toolCall.id, toolCall.name, '', toolCall.args);
    } else {
      // A standalone row for this call (created by an early event) is now owned by the message.
      removeRow(chat, `call:${toolCall.id}`);
    }
  }
  const row = findRow(chat, message.id);
  if (row && row.kind === 'assistant') {
    row.content = message.content;
    row.reasoning = message.reasoning ?? '';
    row.streaming = false;
    row.callIds = callIds;
    row.stopReason = message.stopReason;
    row.error = message.error;
    row.model = message.model;
    row.usage = message.usage;
    row.timing = message.timing;
    return;
  }
  pushRow(chat, {
    kind: 'assistant',
    id: message.id,
    content: message.content,
    reasoning: message.reasoning ?? '',
    streaming: false,
    callIds,
    createdAt: message.createdAt,
    stopReason: message.stopReason,
    error: message.error,
    model: message.model,
    usage: message.usage,
    timing: message.timing,
  });
}

function addToolResult(chat: ChatState, message: ToolResultMessage, now: number): void {
  const call = ensureCall(chat, message.callId, message.toolName, message.groupName ?? '', message.args ?? {}, message.createdAt, message.rerunOf, message.fromApp);
  if (message.groupName) call.groupName = message.groupName;
  if (message.args && Object.keys(call.args).length === 0) call.args = message.args;
  finishCall(call, message.result, now);
}

function addApproval(chat: ChatState, request: ApprovalRequest, now: number): void {
  if (chat.approvals[request.id]) return;
  chat.approvals[request.id] = request;
  chat.approvalOrder = [...chat.approvalOrder, request.id];
  const call = ensureCall(chat, request.callId, request.toolName, request.groupName, request.args, now);
  if (request.groupName) call.groupName = request.groupName;
  if (request.type === 'execution') call.args = request.args;
  call.status = 'approval';
}

function hasPendingApproval(chat: ChatState, callId: string): boolean {
  return chat.approvalOrder.some((id) => chat.approvals[id]?.callId === callId);
}

/** The call's state, created (with a standalone row) when no assistant message announced it. */
function ensureCall(
  chat: ChatState,
  callId: string,
  toolName: string,
  groupName: string,
  args: Record<string, unknown>,
  now: number,
  rerunOf?: string,
  fromApp?: string,
): ToolCallState {
  let call = chat.toolCalls[callId];
  if (!call) {
    call = newCall(callId, toolName, groupName, args);
    chat.toolCalls[callId] = call;
    const under = rerunOf ?? fromApp;
    const first = under ? chat.toolCalls[under] : undefined;
    if (first) {
      // A "Run again" is shown under the call it repeats, and an app's call under the app: not as rows of their own.
      if (rerunOf) call.rerunOf = rerunOf;
      else call.fromApp = fromApp;
      first.reruns.push(callId);
    } else pushRow(chat, { kind: 'tool', id: `call:${callId}`, callId, createdAt: now });
  }
  return chat.toolCalls[callId]!;
}

function newCall(callId: string, toolName: string, groupName: string, args: Record<string, unknown>): ToolCallState {
  return { callId, toolName, groupName, args, status: 'pending', partial: '', reruns: [] };
}

function finishCall(call: ToolCallState, result: ToolCallState['result'] & {}, now: number): void {
  call.result = result;
  call.status = result.cancelled ? 'cancelled' : statusOf(result.status);
  call.finishedAt = now;
  if (call.startedAt === undefined && result.durationMs !== undefined) call.startedAt = now - result.durationMs;
}

function statusOf(status: ToolExecuteStatus): ToolCallStatus {
  if (status === 'SUCCESS') return 'done';
  if (status === 'EXECUTION_REJECTED' || status === 'RESULT_REJECTED') return 'rejected';
  return 'error';
}

function findRow(chat: ChatState, id: string): Row | undefined {
  const index = chat.rowIndex[id];
  return index === undefined ? undefined : chat.rows[index];
}

function pushRow(chat: ChatState, row: Row): void {
  chat.rowIndex[row.id] = chat.rows.length;
  chat.rows.push(row);
}

function removeRow(chat: ChatState, id: string): void {
  const index = chat.rowIndex[id];
  if (index === undefined) return;
  chat.rows.splice(index, 1);
  delete chat.rowIndex[id];
  for (let i = index; i < chat.rows.length; i++) chat.rowIndex[chat.rows[i]!.id] = i;
}
