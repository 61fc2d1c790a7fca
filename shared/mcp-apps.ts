// MCP Apps (`io.modelcontextprotocol/ui`): what crosses the API when a tool call's block shows an
// app. The runtime fetches the `ui://` resource, builds its CSP and serves it from the sandbox
// origin; the renderer frames it and relays what the app asks through these methods, so every
// request meets the same gates as the model's own calls (approvals, rules, variables, bounds).

/** What a tool result says about its app: rendered in the call's block. */
export interface ToolAppRef {
  /** The MCP server whose resource it is; absent for an app a module or Python tool returned itself. */
  server?: string;
  /** The `ui://` resource. */
  uri: string;
}

/** `_meta.ui.csp` of a resource, and `_meta.ui.permissions`, as the spec names them. */
export interface AppCspDomains {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}
export const APP_PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
export type AppPermission = (typeof APP_PERMISSIONS)[number];

/** A per-server consent the user gives once: show its apps (untrusted servers), grant its permissions, open its links. */
export type AppConsentKind = 'show' | 'permissions' | 'links' | 'messages';

/** Everything the block needs to show the app of one call. */
export interface McpAppView {
  callId: string;
  server?: string;
  uri: string;
  /** The server is trusted (`mcp add --trust`, the trust switch), or the user chose "Show this app" for it. */
  allowed: boolean;
  /** The frame's address on the sandbox origin (absent until `allowed`, or when the resource failed). */
  proxyUrl?: string;
  /** The Content-Security-Policy the app runs under, and what it lets it reach (shown to the user). */
  csp: { policy: string; network: string[]; dropped: string[] };
  /** Permissions the resource asks for, and whether the user granted them for this server. */
  permissions: { requested: AppPermission[]; granted: boolean };
  /** The frames' `allow` attribute: the requested permissions once granted, else empty. */
  allow: string;
  /** Consents already given for the server. */
  consents: AppConsentKind[];
  /** The call's input and result as the app receives them (`ui/notifications/tool-input`, `tool-result`). */
  toolInput: Record<string, unknown>;
  toolResult: { content: unknown[]; structuredContent?: unknown; isError?: boolean };
  /** Why the app cannot be shown (resource missing, not HTML, too big): the block shows text instead. */
  problem?: string;
}

/** What an app's `tools/call` resolves to (an MCP CallToolResult). */
export interface AppToolCallResult {
  content: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
}

export interface AppsApiMethods {
  /** The app of a finished call (its result names a `ui://` resource); served again from the stored call after a reload. */
  openMcpApp: { request: { sessionId: string; callId: string }; response: McpAppView };
  /** Gives a consent for a server's apps (remembered in TOOLDESK_HOME/mcp-app-consents.json). */
  allowMcpApp: { request: { server: string; kind: AppConsentKind }; response: AppConsentKind[] };
  /**
   * `tools/call` from the app of `callId`: only tools of its own server that list "app" in
   * `_meta.ui.visibility` (absent = both), run through the chat's executor (approval card,
   * variables, timeout) and listed under the app's call marked "from the app".
   */
  callToolFromApp: { request: { sessionId: string; callId: string; name: string; args: Record<string, unknown> }; response: AppToolCallResult };
  /** `resources/read` from the app of `callId`: its own server only. */
  readResourceFromApp: { request: { sessionId: string; callId: string; uri: string }; response: { contents: unknown[] } };
  /** `ui/update-model-context`: the app's text for the model's next request (bounded; empty clears). */
  updateModelContextFromApp: { request: { sessionId: string; callId: string; text: string }; response: { chars: number; truncated: boolean } };
}

export const APPS_API_METHODS = ['openMcpApp', 'allowMcpApp', 'callToolFromApp', 'readResourceFromApp', 'updateModelContextFromApp'] as const satisfies readonly (keyof AppsApiMethods)[];
