// The branch commands of a chat, over its message tree: Edit (a new user message beside the old
// one), Regenerate/Retry (the model answers again from a user message), switching the shown
// branch, and deleting a message. Nothing is rewritten: the old messages stay as branches, and
// every move of the shown branch is a `head` record. Edit and Regenerate are turns (they hold the
// turn gate); a switch or a delete is refused while a turn runs.
import type { ErrorValue } from '../../../shared/chat.ts';
import type { MessageTree } from './message-tree.ts';
import type { StoredAttachment } from './persistence/session-attachments.ts';
import type { SessionRecord } from './persistence/session-records.ts';
import type { SendResult, TurnGate } from './turn/turn-gate.ts';
import type { TurnResult } from './turn/chat-turn.ts';

export interface BranchPorts {
  readonly tree: MessageTree;
  readonly turns: TurnGate;
  /** A user turn from `parentId` (the session's own: records, title, the agent loop). */
  runUserTurn(text: string, signal: AbortSignal, options: { parentId: string | null; attachments?: StoredAttachment[] }): Promise<TurnResult>;
  /** The model answers from the head as it is now. */
  runModelTurn(signal: AbortSignal): Promise<TurnResult>;
  /** Moves the shown branch's end (recorded and announced). */
  moveHead(id: string | null): void;
  /** The path changes under an interrupted turn: it can no longer go on. */
  endInterruption(): void;
  /** Writes a record to the session file. */
  record(record: SessionRecord): void;
  /** The tree lost a message: the file's shown count and the path are announced again. */
  pathChanged(): void;
}

const errorValue = (name: string, message: string): ErrorValue => ({ name, message });

/** Edit: a new user message beside `messageId` (the old one and its continuation stay as a branch), then the model answers. */
export function editMessage(ports: BranchPorts, messageId: string, text: string): SendResult {
  const old = ports.tree.get(messageId);
  if (!old || old.role !== 'user') return { ok: false, error: errorValue('NotFoundError', `No user message "${messageId}" in this session.`) };
  if (text.trim() === '' && !old.attachments?.length) return { ok: false, error: errorValue('EmptyMessage', 'The message is empty.') };
  return ports.turns.start((signal) =>
    ports.runUserTurn(text, signal, { parentId: ports.tree.parentOf(messageId), ...(old.attachments ? { attachments: old.attachments.map((attachment) => ({ attachment })) } : {}) }),
  );
}

/**
 * Regenerate (and Retry): the model answers again from the user message before `messageId`
 * (an assistant or tool message, or that user message itself); the old answer stays as a branch.
 */
export function regenerateFrom(ports: BranchPorts, messageId: string): SendResult {
  const { tree } = ports;
  if (!tree.has(messageId)) return { ok: false, error: errorValue('NotFoundError', `No message "${messageId}" in this session.`) };
  let userId: string | null = messageId;
  while (userId !== null && tree.get(userId)!.role !== 'user') userId = tree.parentOf(userId);
  if (userId === null) return { ok: false, error: errorValue('NotFoundError', 'There is no user message before this one to answer again.') };
  const from = userId;
  return ports.turns.start(async (signal) => {
    ports.moveHead(from);
    return ports.runModelTurn(signal);
  });
}

/** Shows another branch: the newest continuation of `messageId` (one of a message's alternatives). */
export function switchBranch(ports: BranchPorts, messageId: string): boolean {
  if (ports.turns.running || !ports.tree.has(messageId)) return false;
  ports.endInterruption();
  ports.moveHead(ports.tree.latestLeaf(messageId));
  return true;
}

/** Deletes one message; what followed it continues from the message before. */
export function deleteMessage(ports: BranchPorts, messageId: string): boolean {
  if (ports.turns.running || !ports.tree.has(messageId)) return false;
  ports.endInterruption();
  ports.record({ t: 'delete', at: Date.now(), id: messageId });
  ports.tree.delete(messageId);
  ports.pathChanged();
  return true;
}
