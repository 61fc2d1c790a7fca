// A chat's shown history: its message tree, each change written to the session file before it is
// announced (`session.message`, `session.path`), so a window never shows what the reopened
// session would not. The file's meta counts the shown path's messages.
import type { ChatEvent, ChatMessage } from '../../../shared/chat.ts';
import type { MessageTree } from './message-tree.ts';
import type { SessionFile } from './persistence/session-file.ts';

export interface SessionHistoryPorts {
  sessionId: string;
  file: SessionFile;
  /** Contract: never throws. */
  emit(event: ChatEvent): void;
}

export class SessionHistory {
  readonly tree: MessageTree;
  readonly #ports: SessionHistoryPorts;

  constructor(tree: MessageTree, ports: SessionHistoryPorts) {
    this.tree = tree;
    this.#ports = ports;
    ports.file.countShown(() => tree.path().length);
  }

  /** Adds `message` after the shown branch's end, which it becomes. */
  append(message: ChatMessage): void {
    message.parentId = this.tree.head;
    this.tree.add(message);
    this.#ports.file.append({ t: 'message', at: message.createdAt, message });
    const branch = this.tree.branchOf(message.id);
    this.#ports.emit({ type: 'session.message', sessionId: this.#ports.sessionId, message, ...(branch ? { branch } : {}) });
  }

  /** Moves the shown branch's end (recorded, so a reopened session shows the same branch). */
  moveHead(id: string | null): void {
    this.tree.setHead(id);
    this.#ports.file.append({ t: 'head', at: Date.now(), id });
    this.#emitPath();
  }

  /** The shown path changed in place (a delete): the file's meta is written again with its new count. */
  pathChanged(): void {
    this.#ports.file.writeMeta();
    this.#emitPath();
  }

  #emitPath(): void {
    this.#ports.emit({ type: 'session.path', sessionId: this.#ports.sessionId, messages: this.tree.path(), branches: this.tree.branches() });
  }
}
