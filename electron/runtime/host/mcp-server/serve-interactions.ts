// Where a running tool's questions go under `tooldesk mcp serve` (Open WebUI's __event_call__, a
// proxied MCP server's elicitation): to the connection whose call asked, which forwards them to its
// client as an elicitation, or answers "decline" when that client cannot ask (and says so in the
// call's result). The tool's call names the connection: its session id is the connection's id.
import type { ElicitResult } from '@modelcontextprotocol/server';
import type { ElicitationAsk, McpInteractions } from '../../sources/mcp/types.ts';

export interface ServeAsker {
  /** Contract: resolves with the client's answer, or a decline; never rejects. */
  elicit(ask: ElicitationAsk, signal: AbortSignal): Promise<ElicitResult>;
}

export class ServeInteractionRouter implements McpInteractions {
  readonly #connections = new Map<string, ServeAsker>();

  /** Routes the questions of calls made on connection `id`; the disposer stops it. */
  add(id: string, asker: ServeAsker): () => void {
    this.#connections.set(id, asker);
    return () => {
      if (this.#connections.get(id) === asker) this.#connections.delete(id);
    };
  }

  /** Whether the calls of session `id` are a connection's here (their questions go to its client). */
  routes(id: string | undefined): boolean {
    return id !== undefined && this.#connections.has(id);
  }

  readonly elicit = async (ask: ElicitationAsk, signal: AbortSignal): Promise<ElicitResult> => {
    const asker = ask.call ? this.#connections.get(ask.call.sessionId) : undefined;
    return asker ? asker.elicit(ask, signal) : { action: 'decline' };
  };

  readonly sample = async (): Promise<never> => {
    throw new Error('tooldesk mcp serve has no model of its own to sample with; run this tool in the Tooldesk app or `tooldesk chat` instead.');
  };
}
