// MCP elicitation and sampling in the app: a request is shown as a card in the chat whose tool
// call it arrived during. No chat (a call from the Tools panel, or no window) means declined.
import type { CreateMessageResult, ElicitResult } from '@modelcontextprotocol/client';
import type { McpInteractions } from '../../sources/mcp/types.ts';
import { elicitationCard, elicitResult, sampleWith, samplingCard } from './mcp-chat-asks.ts';
import type { SessionManager } from '../../chat/persistence/session-manager.ts';

let counter = 0;
const newAskId = () => `mcp-ask-${Date.now().toString(36)}-${(++counter).toString(36)}`;

export interface ChatInteractionOptions {
  /** Opens a URL in the user's browser (URL-mode elicitation, after the user agreed). */
  openUrl?: (url: string) => Promise<boolean>;
}

export function chatMcpInteractions(sessions: () => Promise<SessionManager>, options: ChatInteractionOptions = {}): McpInteractions {
  return {
    async elicit(ask, signal): Promise<ElicitResult> {
      const session = ask.call ? (await sessions()).opened(ask.call.sessionId) : undefined;
      if (!session) return { action: 'decline' };
      const card = elicitationCard(ask, { id: newAskId(), sessionId: session.id });
      if (card.kind === 'url' && !/^https?:\/\//i.test(card.url)) return { action: 'decline' };
      const answer = await session.askMcp(card, signal);
      if (card.kind === 'url' && answer.action === 'accept') {
        // The user agreed to open it; the secret goes to the site, never through the app.
        if (!options.openUrl || !(await options.openUrl(card.url))) return { action: 'cancel' };
        return { action: 'accept' };
      }
      return elicitResult(answer);
    },
    async sample(ask, signal): Promise<CreateMessageResult> {
      const session = ask.call ? (await sessions()).opened(ask.call.sessionId) : undefined;
      if (!session) throw new Error('sampling needs a chat where the user can allow it; none is open for this call');
      const card = samplingCard(ask, { id: newAskId(), sessionId: session.id });
      if (card.kind !== 'sampling') throw new Error('internal: not a sampling card');
      const answer = await session.askMcp(card, signal);
      if (answer.action !== 'accept') throw new Error('the user did not allow this sampling request');
      const resolution = await session.provider();
      if (!resolution.ok) throw new Error(`no model to answer with: ${resolution.reason}`);
      return sampleWith(resolution.provider, resolution.config.model, card, signal);
    },
  };
}
