// What Tooldesk declares to a server (client capabilities) and how it answers the server's own
// requests and notifications: `roots/list` (only when the user gave it folders), its log lines,
// elicitation (never a form asking for a secret) and sampling (bounded per tool call).
import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import { asksForSecret } from './elicitation-policy.ts';
import type { McpServer } from '../config/server-config.ts';
import type { ServerLog } from './server-log.ts';
import { rootsList, serverRoots } from './server-roots.ts';
import type { McpInteractions } from '../types.ts';

export interface ServerRequestContext {
  server: McpServer;
  interactions: McpInteractions | undefined;
  log: ServerLog;
  /** Contract: the tool call a request belongs to (if any) and a signal that also ends with that call. */
  askContext(signal: AbortSignal): { call?: { sessionId: string; callId: string }; signal: AbortSignal };
  /** Contract: takes one sampling request from the running call's budget; false when it is spent. */
  takeSampling(): boolean;
  /** The budget's size, for the refusal's message. */
  maxSamplingPerCall: number;
}

export function clientCapabilities(server: McpServer, interactions: McpInteractions | undefined): ClientCapabilities {
  return {
    // Declared only when the user gave the server folders (server-roots.ts).
    ...(serverRoots(server).length > 0 ? { roots: {} } : {}),
    ...(interactions?.elicit ? { elicitation: { form: {}, url: {} } } : {}),
    ...(interactions?.sample ? { sampling: {} } : {}),
  };
}

export function handleServerRequests(client: Client, context: ServerRequestContext): void {
  const { server, interactions, log } = context;
  const name = server.name;
  if (serverRoots(server).length > 0) client.setRequestHandler('roots/list', async () => rootsList(server));
  client.setNotificationHandler('notifications/message', (n) => {
    const { level, logger, data } = n.params;
    log.add(`[${level}]${logger ? ` ${logger}:` : ''} ${typeof data === 'string' ? data : JSON.stringify(data)}`, 'log');
  });
  if (interactions?.elicit) {
    const elicit = interactions.elicit;
    client.setRequestHandler('elicitation/create', async (request, ctx) => {
      const params = request.params;
      const secret = params.mode !== 'url' ? asksForSecret(params.requestedSchema) : undefined;
      if (secret) {
        log.add(`tooldesk: refused a form elicitation asking for "${secret}": secrets are only asked for in URL mode`);
        return { action: 'decline' };
      }
      const { call, signal } = context.askContext(ctx.mcpReq.signal);
      return elicit({ server: name, params, ...(call ? { call } : {}) }, signal);
    });
  }
  if (interactions?.sample) {
    const sample = interactions.sample;
    client.setRequestHandler('sampling/createMessage', async (request, ctx) => {
      if (!context.takeSampling()) {
        log.add('tooldesk: refused a sampling request: too many in one tool call');
        throw new Error(`Tooldesk allows ${context.maxSamplingPerCall} sampling requests per tool call; this one was refused`);
      }
      const { call, signal } = context.askContext(ctx.mcpReq.signal);
      return sample({ server: name, params: request.params, ...(call ? { call } : {}) }, signal);
    });
  }
}
