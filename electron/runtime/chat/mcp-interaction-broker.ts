// What MCP servers ask the user during a tool call (form and URL elicitation, sampling), pending
// per session and keyed by request id like approvals: answered through the session API, or
// dropped (declined) when the call or the turn is aborted; no one attached means declined.
import type { McpInteractionAnswer, McpInteractionRequest } from '../../../shared/mcp.ts';

export interface McpInteractionHooks {
  requested(request: McpInteractionRequest): void;
  /** `answer` null: dropped (aborted, or the server gave up). */
  resolved(request: McpInteractionRequest, answer: McpInteractionAnswer | null): void;
  canAsk(): boolean;
}

export class McpInteractionBroker {
  readonly #pending = new Map<string, { request: McpInteractionRequest; resolve: (answer: McpInteractionAnswer) => void }>();

  constructor(private readonly hooks: McpInteractionHooks) {}

  /** Resolves with the user's answer; `cancel` when dropped, `decline` when no one can answer. Never rejects. */
  ask(request: McpInteractionRequest, signal: AbortSignal): Promise<McpInteractionAnswer> {
    return new Promise((resolve) => {
      if (!this.hooks.canAsk()) return resolve({ action: 'decline' });
      this.#pending.set(request.id, { request, resolve });
      const drop = () => {
        if (!this.#pending.delete(request.id)) return;
        this.hooks.resolved(request, null);
        resolve({ action: 'cancel' });
      };
      if (signal.aborted) return drop();
      signal.addEventListener('abort', drop, { once: true });
      this.hooks.requested(request);
    });
  }

  answer(requestId: string, answer: McpInteractionAnswer): boolean {
    const pending = this.#pending.get(requestId);
    if (!pending) return false;
    this.#pending.delete(requestId);
    this.hooks.resolved(pending.request, answer);
    pending.resolve(answer);
    return true;
  }

  pending(): McpInteractionRequest[] {
    return [...this.#pending.values()].map((p) => p.request);
  }
}
