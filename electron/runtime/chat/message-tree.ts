// A session's messages as a tree: Edit and Regenerate start a new branch beside the old one, and
// the path from the root to the head is what the chat shows and the model reads. Built by
// replaying the JSONL records (a message without `parentId` — every message of a file written
// before branches existed — continues the message appended just before it, so old files read as
// the one line they always were).
import type { BranchInfo, ChatMessage } from '../../../shared/chat.ts';

/** What the tree needs of a message: a reader that only outlines a file stores ids and offsets. */
export interface TreeMessage {
  id: string;
  parentId?: string | null;
}

interface Node<M> {
  message: M;
  parentId: string | null;
  children: string[];
}

export class MessageTree<M extends TreeMessage = ChatMessage> {
  readonly #nodes = new Map<string, Node<M>>();
  readonly #roots: string[] = [];
  /** The last message appended (what a message without parentId continues). */
  #lastAdded: string | null = null;
  #head: string | null = null;

  get head(): string | null {
    return this.#head;
  }

  get size(): number {
    return this.#nodes.size;
  }

  has(id: string): boolean {
    return this.#nodes.has(id);
  }

  get(id: string): M | undefined {
    return this.#nodes.get(id)?.message;
  }

  parentOf(id: string): string | null {
    return this.#nodes.get(id)?.parentId ?? null;
  }

  /**
   * Adds a message under `message.parentId` (null: a root; undefined: after the last message
   * added) and makes it the head. A repeated id is ignored; an unknown parent makes it a root.
   */
  add(message: M): void {
    if (this.#nodes.has(message.id)) return;
    let parentId = message.parentId === undefined ? this.#lastAdded : message.parentId;
    if (parentId !== null && !this.#nodes.has(parentId)) parentId = null;
    this.#nodes.set(message.id, { message, parentId, children: [] });
    if (parentId === null) this.#roots.push(message.id);
    else this.#nodes.get(parentId)!.children.push(message.id);
    this.#lastAdded = message.id;
    this.#head = message.id;
  }

  /** Moves the head (false for an unknown id). null: before the first message. */
  setHead(id: string | null): boolean {
    if (id !== null && !this.#nodes.has(id)) return false;
    this.#head = id;
    return true;
  }

  /**
   * Removes one message: its children move up to its parent (the conversation closes over the
   * gap). The head moves to the parent when it was the removed message.
   */
  delete(id: string): boolean {
    const node = this.#nodes.get(id);
    if (!node) return false;
    const siblings = node.parentId === null ? this.#roots : this.#nodes.get(node.parentId)!.children;
    siblings.splice(siblings.indexOf(id), 1, ...node.children);
    for (const child of node.children) this.#nodes.get(child)!.parentId = node.parentId;
    this.#nodes.delete(id);
    if (this.#head === id) this.#head = node.children.length > 0 ? this.latestLeaf(node.children.at(-1)!) : node.parentId;
    if (this.#lastAdded === id) this.#lastAdded = this.#head;
    return true;
  }

  /** The newest leaf under `id`: follows the last child down (where a switched-to branch ends). */
  latestLeaf(id: string): string {
    let current = id;
    for (let node = this.#nodes.get(current); node && node.children.length > 0; node = this.#nodes.get(current)) current = node.children.at(-1)!;
    return current;
  }

  /** Root → head: what the chat shows and the model reads. */
  path(): M[] {
    const out: M[] = [];
    for (let id = this.#head; id !== null; id = this.#nodes.get(id)?.parentId ?? null) out.push(this.#nodes.get(id)!.message);
    return out.reverse();
  }

  /** Where a message sits among its siblings; undefined when it has none. */
  branchOf(id: string): BranchInfo | undefined {
    const node = this.#nodes.get(id);
    if (!node) return undefined;
    const siblings = node.parentId === null ? this.#roots : this.#nodes.get(node.parentId)!.children;
    if (siblings.length < 2) return undefined;
    const index = siblings.indexOf(id);
    return { index: index + 1, count: siblings.length, ...(index > 0 ? { previous: siblings[index - 1] } : {}), ...(index < siblings.length - 1 ? { next: siblings[index + 1] } : {}) };
  }

  /** Branch info of every message on the path that has siblings. */
  branches(): Record<string, BranchInfo> {
    const out: Record<string, BranchInfo> = {};
    for (const message of this.path()) {
      const info = this.branchOf(message.id);
      if (info) out[message.id] = info;
    }
    return out;
  }

  /** Every message, in the order they were added (for export and search). */
  all(): M[] {
    return [...this.#nodes.values()].map((n) => n.message);
  }
}
