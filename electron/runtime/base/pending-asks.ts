// Questions waiting for an answer (an approval, a result approval, an MCP server's elicitation or
// sampling request, later an MCP App's request), keyed by request id, as opencode's permission
// module keeps them. A question ends in exactly one way, and each way is reported once:
//   answered   answer(id, value)            → `resolved(request, value)`, the asker gets `value`
//   dropped    its signal aborts             → `resolved(request, null)`, the asker gets `dropped(signal)`
//   all gone   rejectAll(reason) (close)     → every pending one as if its signal aborted
//   no one     `canAsk()` is false at ask    → the asker gets `unattended` at once, nothing reported
// ask() never rejects, so a caller never has to guard a throw across the loop or a protocol round.

export interface PendingAsksHooks<Q extends { id: string }, A> {
  /** Contract: someone can answer now (a window, a terminal, a client); read at each ask. */
  canAsk?(): boolean;
  /** Contract: a card (or prompt, or protocol round) should show `request`; never throws. */
  requested?(request: Q): void;
  /** Contract: `request` is settled; `answer` null = dropped. Never throws. */
  resolved?(request: Q, answer: A | null): void;
  /** What the asker gets when its question is dropped; `reason` is the abort's reason. */
  dropped(reason: unknown): A;
  /** What the asker gets when no one can answer. */
  unattended: () => A;
}

interface Entry<Q, A> {
  request: Q;
  settle: (answer: A, report: A | null) => void;
}

export class PendingAsks<Q extends { id: string }, A> {
  readonly #pending = new Map<string, Entry<Q, A>>();

  constructor(private readonly hooks: PendingAsksHooks<Q, A>) {}

  /** Resolves with the answer, or with `dropped`/`unattended`; never rejects. */
  ask(request: Q, signal?: AbortSignal): Promise<A> {
    return new Promise<A>((resolve) => {
      if (this.hooks.canAsk && !this.hooks.canAsk()) return resolve(this.hooks.unattended());
      if (signal?.aborted) return resolve(this.hooks.dropped(signal.reason));
      const onAbort = () => this.#drop(request.id, signal!.reason);
      const settle = (answer: A, report: A | null) => {
        signal?.removeEventListener('abort', onAbort);
        this.#pending.delete(request.id);
        this.hooks.resolved?.(request, report);
        resolve(answer);
      };
      // A second question under a taken id would orphan the first: drop the old one.
      if (this.#pending.has(request.id)) this.#drop(request.id, new Error('asked again under the same id'));
      this.#pending.set(request.id, { request, settle });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.hooks.requested?.(request);
    });
  }

  /** False when no such question is pending (already answered, or dropped). */
  answer(requestId: string, answer: A): boolean {
    const entry = this.#pending.get(requestId);
    if (!entry) return false;
    entry.settle(answer, answer);
    return true;
  }

  /** Drops every pending question (turn aborted, session or connection closed); returns how many. */
  rejectAll(reason: unknown): number {
    const ids = [...this.#pending.keys()];
    for (const id of ids) this.#drop(id, reason);
    return ids.length;
  }

  pending(): Q[] {
    return [...this.#pending.values()].map((entry) => entry.request);
  }

  has(requestId: string): boolean {
    return this.#pending.has(requestId);
  }

  get size(): number {
    return this.#pending.size;
  }

  #drop(requestId: string, reason: unknown): void {
    const entry = this.#pending.get(requestId);
    if (entry) entry.settle(this.hooks.dropped(reason), null);
  }
}

/** The message of an abort reason (an Error's message, a string), or '' when it has none. */
export function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return typeof reason === 'string' ? reason : '';
}
