// The API side of MCP Apps (shared/mcp-apps.ts): opens the app of a stored call (resource, CSP,
// consents, the sandbox-origin URL) and answers what the app asks, each through its gate:
// `tools/call` only for app-visible tools of its own server, through the chat's executor;
// `resources/read` of its own server only. Requests are bounded per app.
import { apiError } from '../../../../shared/api.ts';
import type { ToolResultMessage } from '../../../../shared/chat.ts';
import type { AppConsentKind, AppToolCallResult, McpAppView } from '../../../../shared/mcp-apps.ts';
import type { ToolExecuteResult } from '../../../../shared/tools.ts';
import { openAppConsents } from '../../apps/app-consents.ts';
import { buildAppCsp } from '../../apps/app-csp.ts';
import { allowAttribute, requestedPermissions } from '../../apps/app-permissions.ts';
import { appResourceFrom, readAppResource, type AppResource } from '../../apps/app-resource.ts';
import { startAppSandboxServer, type AppSandboxServer } from '../../apps/app-sandbox-server.ts';
import { appCallRefusal } from '../../apps/app-visibility.ts';
import type { ChatSession } from '../../chat/chat-session.ts';
import type { McpManager } from '../../sources/mcp/index.ts';
import type { ToolUiMeta } from '../../sources/mcp/mapping/tool-ui-meta.ts';
import { isOwnAppData } from '../../tools/own-tool-app.ts';
import { runAppToolCall } from './run-app-tool-call.ts';

export interface AppServiceDeps {
  home: string;
  mcp?: McpManager;
  /** The chat session (opened when needed); throws NotFoundError. */
  session(id: string): ChatSession;
}

export interface AppService {
  open(sessionId: string, callId: string): Promise<McpAppView>;
  allow(server: string, kind: AppConsentKind): Promise<AppConsentKind[]>;
  callTool(sessionId: string, callId: string, name: string, args: Record<string, unknown>): Promise<AppToolCallResult>;
  readResource(sessionId: string, callId: string, uri: string): Promise<{ contents: unknown[] }>;
  updateModelContext(sessionId: string, callId: string, text: string): { chars: number; truncated: boolean };
  close(): void;
}

/** Calls one app may have running at once, and per minute. */
export const APP_CALL_LIMITS = { concurrent: 4, perMinute: 60 } as const;

export function createAppService(deps: AppServiceDeps): AppService {
  const consents = openAppConsents(deps.home);
  let sandbox: Promise<AppSandboxServer> | undefined;
  const running = new Map<string, number>();
  const recent = new Map<string, number[]>();

  const appCall = (sessionId: string, callId: string): ToolResultMessage => {
    const message = deps.session(sessionId).allMessages().find((m): m is ToolResultMessage => m.role === 'tool' && (m.callId === callId || m.result.callId === callId) && Boolean(m.result.app));
    if (!message) throw apiError('NotFoundError', `no call "${callId}" with an app in session "${sessionId}"`);
    return message;
  };
  const connectionOf = (server: string | undefined) => {
    const connection = server ? deps.mcp?.connection(server) : undefined;
    if (!connection) throw apiError('NotFoundError', `the MCP server "${server ?? ''}" of this app is not configured any more`);
    if (!connection.wanted) throw apiError('UnavailableError', `the MCP server "${server}" is switched off`);
    return connection;
  };
  const budget = (key: string) => {
    const now = Date.now();
    const times = (recent.get(key) ?? []).filter((t) => t > now - 60_000);
    if ((running.get(key) ?? 0) >= APP_CALL_LIMITS.concurrent) throw apiError('AppLimitError', `this app already has ${APP_CALL_LIMITS.concurrent} tool calls running`);
    if (times.length >= APP_CALL_LIMITS.perMinute) throw apiError('AppLimitError', `this app made ${APP_CALL_LIMITS.perMinute} tool calls in the last minute; wait before the next`);
    times.push(now);
    recent.set(key, times);
    // Bounded: apps idle for a minute are forgotten.
    if (recent.size > 1000) for (const [k, t] of recent) if (!t.some((x) => x > now - 60_000)) recent.delete(k);
  };

  return {
    async open(sessionId, callId) {
      const message = appCall(sessionId, callId);
      const ref = message.result.app!;
      const server = ref.server;
      const given = server ? consents.of(server) : [];
      // An app of the user's own tool (no server) is as trusted as the tool itself.
      const trusted = server ? deps.mcp?.connection(server)?.server.trust === true : true;
      const view: McpAppView = {
        callId,
        ...(server ? { server } : {}),
        uri: ref.uri,
        allowed: trusted || given.includes('show'),
        csp: { policy: '', network: [], dropped: [] },
        permissions: { requested: [], granted: given.includes('permissions') },
        allow: '',
        consents: given,
        toolInput: message.result.editedArgs ?? message.args ?? {},
        toolResult: callToolResultOf(message.result),
      };
      const connection = server ? deps.mcp?.connection(server) : undefined;
      if (server && !connection) return { ...view, allowed: false, problem: `the MCP server "${server}" of this app is not configured any more` };
      // Showing a stored call never starts a server the user switched off.
      if (connection && !connection.wanted) return { ...view, problem: `the MCP server "${server}" is switched off; switch it on (Settings → MCP servers) to show its app` };
      const resource = connection ? await readAppResource(connection, ref.uri) : ownAppResource(message.result.data, ref.uri);
      if ('error' in resource) return { ...view, problem: resource.error };
      const csp = buildAppCsp(resource.ui.csp);
      view.csp = csp;
      view.permissions.requested = requestedPermissions(resource.ui.permissions);
      if (!view.allowed) return view;
      view.allow = allowAttribute(view.permissions.requested, view.permissions.granted);
      sandbox ??= startAppSandboxServer();
      view.proxyUrl = (await sandbox).register({ html: resource.html, csp: csp.policy, allow: view.allow });
      return view;
    },

    allow: (server, kind) => consents.grant(server, kind),

    async callTool(sessionId, callId, name, args) {
      const app = appCall(sessionId, callId);
      const session = deps.session(sessionId);
      const server = app.result.app!.server;
      const mcpOf = (meta: Record<string, unknown> | undefined) => meta?.mcp as { server?: string; tool?: string; ui?: ToolUiMeta } | undefined;
      // An own tool's app has no server, so it matches no tool.
      const target = server ? session.tools.findTool({ server, tool: name }) : undefined;
      const mcp = mcpOf(target?.meta);
      const refusal = appCallRefusal(server, target ? { name, ...(mcp?.server ? { server: mcp.server } : {}), ...(mcp?.ui ? { ui: mcp.ui } : {}) } : undefined);
      if (refusal) return { content: [{ type: 'text', text: `Refused: ${refusal === 'no such tool' ? `no tool "${name}" on this app's server` : refusal}.` }], isError: true };
      const key = `${sessionId}\n${callId}`;
      budget(key);
      running.set(key, (running.get(key) ?? 0) + 1);
      try {
        return callToolResultOf(await runAppToolCall(session, callId, target!.name, args));
      } finally {
        running.set(key, (running.get(key) ?? 1) - 1);
      }
    },

    async readResource(sessionId, callId, uri) {
      const server = appCall(sessionId, callId).result.app!.server;
      const connection = connectionOf(server);
      const read = await connection.request(`read ${uri}`, (client, options) => client.readResource({ uri }, { ...options, cacheMode: 'bypass' }));
      if (!read.ok) throw apiError('McpError', read.error);
      const contents = Array.isArray(read.value.contents) ? read.value.contents : [];
      if (JSON.stringify(contents).length > 4 * 1024 * 1024) throw apiError('AppLimitError', `${uri} is larger than 4 MB`);
      return { contents };
    },

    updateModelContext(sessionId, callId, text) {
      const ref = appCall(sessionId, callId).result.app!;
      return deps.session(sessionId).updateModelContext(callId, `app ${ref.uri}${ref.server ? ` of MCP server ${ref.server}` : ''}`, text);
    },

    close() {
      void sandbox?.then((s) => s.close()).catch(() => {});
    },
  };
}

/** The app an own tool returned, from its stored result. */
function ownAppResource(data: unknown, uri: string): AppResource | { error: string } {
  if (!isOwnAppData(data) || !data.resource.text) return { error: `the HTML of ${uri} was not kept with this call` };
  return appResourceFrom(data.resource as unknown as Record<string, unknown>, uri);
}

/** A stored result as the MCP CallToolResult an app expects (`ui/notifications/tool-result`, `tools/call`). */
export function callToolResultOf(result: ToolExecuteResult): AppToolCallResult {
  if (result.status !== 'SUCCESS') return { content: [{ type: 'text', text: result.error ?? result.rejectReason ?? result.finalText }], isError: true };
  const data = result.data as { text?: unknown; content?: unknown } | undefined;
  const text = result.formattedText ?? result.finalText;
  // mapCallResult keeps `{text, content}` when the server sent no structuredContent.
  if (data && typeof data === 'object' && typeof data.text === 'string' && Array.isArray(data.content)) return { content: data.content };
  // An own tool's app gets the text, not its own HTML back.
  if (isOwnAppData(data)) return { content: [{ type: 'text', text }] };
  return { content: [{ type: 'text', text }], ...(data !== undefined ? { structuredContent: data } : {}) };
}
