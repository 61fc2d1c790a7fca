// Replaying a session's records: the one fold of the JSONL records (session-records.ts) into a
// session's state, shared by the reader that loads a session whole (session-file.ts) and the one
// that only outlines it for lists and `sessions show` (session-outline.ts).
//
// Contract: pure. No I/O; `apply*` change only the state they are given; a record whose payload is
// not what its kind says (a `var` without a variable object) is passed over, never thrown on.
// Two layers: `applySummaryRecord` folds what a summary needs (title, times, flags, the message
// tree, variables) and ignores every other kind; `applySessionRecord` folds that and the rest
// (the chat's settings, approvals asked and answered, turns, tool choices). What the tree and the
// variable map keep of each record is the caller's choice (`ReplayKeep`): a whole message or only
// where it stands in the file, a whole variable or only its summary.
import type { ChatMessage, ChatSettings, SessionFlags } from '../../../../shared/chat.ts';
import type { ToolExecuteStatus } from '../../../../shared/tools.ts';
import type { Variable } from '../../../../shared/variables.ts';
import { MessageTree, type TreeMessage } from '../message-tree.ts';
import { applyFlags, type SessionRecord } from './session-records.ts';
import { DEFAULT_TITLE } from '../titles/title-from-message.ts';

/** What a replay keeps of a message and of a variable (undefined: the variable is dropped). */
export interface ReplayKeep<M extends TreeMessage, V> {
  message: (message: ChatMessage) => M;
  variable: (variable: Variable) => V | undefined;
}

export interface SessionSummaryState<M extends TreeMessage, V> {
  title: string;
  /** 0 until a record says (the caller falls back on the file's time: `settleTimes`). */
  createdAt: number;
  updatedAt: number;
  flags: SessionFlags;
  /** Every message, branches included. */
  tree: MessageTree<M>;
  /** By name, in the order last set (oldest first). */
  variables: Map<string, V>;
}

export interface SessionReplayState<M extends TreeMessage, V> extends SessionSummaryState<M, V> {
  /** The chat's own model and settings. */
  chat: ChatSettings;
  approvalMemory: unknown;
  /** The chat's choice of tools (absent: the global switches). */
  toolSelection?: unknown;
  /** The model names FindTools found in this chat (offered from then on, also after a reopen). */
  foundTools?: string[];
  /** The last turn, when the records have its start but not its end: it was cut off. */
  openTurn?: { turnId: string; at: number };
  /** Approvals asked and never answered, by request id: the call id each one asked about. */
  unansweredAsks: Map<string, string>;
  /** Of those, result approvals: by call id, the result the card showed (the call already ran). */
  unansweredResults: Map<string, { status: ToolExecuteStatus; text: string }>;
}

export function emptySummaryState<M extends TreeMessage, V>(): SessionSummaryState<M, V> {
  return { title: DEFAULT_TITLE, createdAt: 0, updatedAt: 0, flags: {}, tree: new MessageTree<M>(), variables: new Map() };
}

export function emptyReplayState<M extends TreeMessage, V>(): SessionReplayState<M, V> {
  return { ...emptySummaryState<M, V>(), chat: {}, approvalMemory: undefined, unansweredAsks: new Map(), unansweredResults: new Map() };
}

const isVariable = (value: unknown): value is Variable => typeof value === 'object' && value !== null;

function setVariable<V>(variables: Map<string, V>, variable: unknown, keep: ReplayKeep<TreeMessage, V>['variable']): void {
  if (!isVariable(variable)) return;
  const kept = keep(variable);
  variables.delete(variable.name);
  if (kept !== undefined) variables.set(variable.name, kept);
}

/** Folds one record into a summary: title, times, flags, messages and variables. */
export function applySummaryRecord<M extends TreeMessage, V>(state: SessionSummaryState<M, V>, record: SessionRecord, keep: ReplayKeep<M, V>): void {
  // Pinning or archiving is not activity: it does not move the chat in the list.
  if ('at' in record && record.at > state.updatedAt && record.t !== 'flags') state.updatedAt = record.at;
  switch (record.t) {
    case 'flags':
      applyFlags(state.flags, record);
      break;
    case 'session':
      state.createdAt = record.createdAt;
      state.title = record.title || DEFAULT_TITLE;
      break;
    case 'title':
      state.title = record.title;
      break;
    case 'message':
      state.tree.add(keep.message(record.message));
      break;
    case 'head':
      state.tree.setHead(record.id);
      break;
    case 'delete':
      state.tree.delete(record.id);
      break;
    case 'var':
      setVariable(state.variables, record.variable, keep.variable);
      break;
    case 'var-remove':
      state.variables.delete(record.name);
      break;
    case 'vars':
      state.variables.clear();
      for (const v of record.data?.variables ?? []) setVariable(state.variables, v, keep.variable);
      break;
  }
}

/** Folds one record into the whole state of a session. */
export function applySessionRecord<M extends TreeMessage, V>(state: SessionReplayState<M, V>, record: SessionRecord, keep: ReplayKeep<M, V>): void {
  applySummaryRecord(state, record, keep);
  switch (record.t) {
    case 'chat':
      state.chat = record.chat ?? {};
      break;
    case 'approval-memory':
      state.approvalMemory = record.data;
      break;
    case 'approval':
      // null: dropped by an abort or a close, so the question was never answered.
      if (record.decision !== null) {
        state.unansweredAsks.delete(record.request.id);
        if (record.request.type === 'result') state.unansweredResults.delete(record.request.callId);
      }
      break;
    case 'approval-asked':
      state.unansweredAsks.set(record.request.id, record.request.callId);
      if (record.request.type === 'result' && record.request.result) state.unansweredResults.set(record.request.callId, record.request.result);
      break;
    case 'turn':
      if (record.state === 'started') {
        state.openTurn = { turnId: record.turnId, at: record.at };
        state.unansweredAsks.clear();
        state.unansweredResults.clear();
      } else if (state.openTurn?.turnId === record.turnId) state.openTurn = undefined;
      break;
    case 'tool-selection':
      state.toolSelection = record.selection;
      break;
    case 'found-tools':
      state.foundTools = Array.isArray(record.names) ? record.names.filter((n): n is string => typeof n === 'string') : [];
      break;
  }
}

/** A file with no `session` record dates from its own time (`fileTime`, read only then). */
export function settleTimes(state: { createdAt: number; updatedAt: number }, fileTime: () => number): void {
  if (state.createdAt === 0) state.createdAt = fileTime();
  if (state.updatedAt === 0) state.updatedAt = state.createdAt;
}
