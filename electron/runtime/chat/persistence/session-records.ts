// The lines of a session's append-only JSONL file. Each line is one record; replaying them in
// order rebuilds the session. Old records are never rewritten.
import type { ChatMessage, ChatSettings, SessionFlags, StopReason } from '../../../../shared/chat.ts';
import type { ChatToolSelection } from '../../../../shared/tool-selection.ts';
import type { ApprovalDecision, ApprovalRequest } from '../../../../shared/tools.ts';
import type { SerializedVariables, Variable } from '../../../../shared/variables.ts';

export const SESSION_FORMAT_VERSION = 1;

export type SessionRecord =
  /** Always the first line. */
  | { t: 'session'; v: number; id: string; createdAt: number; title: string }
  | { t: 'message'; at: number; message: ChatMessage }
  | { t: 'title'; at: number; title: string }
  /** Pinned / archived changed (absent: unchanged). Does not count as activity (updatedAt). */
  | { t: 'flags'; at: number; pinned?: boolean; archived?: boolean }
  /** A variable added or changed (its full value). */
  | { t: 'var'; at: number; variable: Variable }
  | { t: 'var-remove'; at: number; name: string }
  /** All variables at once (after a restore or clear). */
  | { t: 'vars'; at: number; data: SerializedVariables }
  /** An approval asked and how it ended (null: dropped by abort/close). */
  | { t: 'approval'; at: number; request: ApprovalRequest; decision: ApprovalDecision | null }
  /** The executor's ask-once / session memory, whole (the last one wins). */
  | { t: 'approval-memory'; at: number; data: unknown }
  /** The chat's choice of tools (the last one wins; null: back to the global switches). */
  | { t: 'tool-selection'; at: number; selection: ChatToolSelection | null }
  /** The tools FindTools found in this chat, whole (the last one wins): offered from then on. */
  | { t: 'found-tools'; at: number; names: string[] }
  /**
   * The shown branch moved (a switch, or Edit/Regenerate before their first message): the path
   * ends at `id` (null: no message). Appending a message moves it too, without this record.
   */
  | { t: 'head'; at: number; id: string | null }
  /** A message deleted by the user (its children continue from its parent). */
  | { t: 'delete'; at: number; id: string }
  /** The chat's own model and settings, whole (the last one wins). */
  | { t: 'chat'; at: number; chat: ChatSettings }
  /**
   * A turn began or ended. A started turn with no end when the file is read was cut off (the app
   * was stopped or crashed): the session opens "Interrupted" (turn-interruption.ts).
   */
  | { t: 'turn'; at: number; turnId: string; state: 'started' }
  | { t: 'turn'; at: number; turnId: string; state: 'finished'; stopReason: StopReason }
  /** An approval was asked; its answer is the 'approval' record with the same request id. */
  | { t: 'approval-asked'; at: number; request: ApprovalRequest };

// Builds before branches skip the newer kinds with a warning and show every branch in a row.
const KINDS = new Set(['session', 'message', 'title', 'flags', 'var', 'var-remove', 'vars', 'approval', 'approval-memory', 'tool-selection', 'found-tools', 'head', 'delete', 'chat', 'turn', 'approval-asked']);

/** A parsed line, or why it is not a record. */
export function parseRecord(line: string): SessionRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `not JSON (${(error as Error).message})`;
  }
  if (typeof value !== 'object' || value === null || !KINDS.has((value as { t?: string }).t ?? '')) return 'not a session record';
  return value as SessionRecord;
}

/** Sets a 'flags' record on a summary; false is written as absent (old readers see nothing new). */
export function applyFlags(target: SessionFlags, record: SessionFlags): void {
  for (const key of ['pinned', 'archived'] as const) {
    if (record[key] === true) target[key] = true;
    else if (record[key] === false) delete target[key];
  }
}
