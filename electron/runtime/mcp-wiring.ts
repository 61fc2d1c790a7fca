// How the runtime wires its MCP servers to the rest: which servers a kind of run starts, a tool's
// questions go to the chat's cards (loaded with the first question), a settings view holding only
// some servers, and the sign-in pages a server may open (web pages only).
import type { Settings } from '../../shared/settings.ts';
import type { SessionManager } from './chat/persistence/session-manager.ts';
import type { McpManager } from './sources/mcp/mcp-manager.ts';
import type { McpInteractions } from './sources/mcp/types.ts';
import type { SettingsStore } from './store/settings-store.ts';

/**
 * How a runtime's tools use the MCP servers: `lazy` (default) starts each switched-on server at
 * once and lists its tools when they come; `start-all` starts them all and waits (a one-shot
 * listing); `{ startOwnerOf: NAME }` starts only the server(s) whose tools are called like NAME
 * and waits for those (`tools run`: a file tool starts none); `false` leaves them out.
 */
export type McpStartMode = 'lazy' | 'start-all' | { startOwnerOf: string } | false;

/**
 * The servers a mode starts now and waits for; undefined: every switched-on one, without waiting.
 * The owner lookup loads with a `tools run` only: `sessions list` and the like load no MCP code.
 */
export async function serversToStart(mode: McpStartMode | undefined, settings: Settings): Promise<string[] | 'all' | undefined> {
  if (mode === 'start-all') return 'all';
  if (typeof mode === 'object') {
    const { owningServers } = await import('./sources/mcp/ready/owning-servers.ts');
    return owningServers(Object.keys(settings.mcpServers), mode.startOwnerOf);
  }
  return undefined;
}

/** Whether a mode needs the MCP part at all: a one-shot run with no server to start loads none (the SDK is big). */
export async function mcpPartWanted(mode: McpStartMode | undefined, settings: Settings): Promise<boolean> {
  const start = await serversToStart(mode, settings);
  if (start === 'all') return Object.keys(settings.mcpServers).length > 0;
  if (start) return start.length > 0;
  return mode !== false;
}

/** Starts what the mode names and waits until those servers are ready or failed and quiet. */
export async function startForMode(manager: McpManager, mode: McpStartMode | undefined, settings: Settings): Promise<void> {
  const start = await serversToStart(mode, settings);
  if (!start) return;
  await manager.startAll(start === 'all' ? undefined : start);
  await manager.settle();
}

/**
 * The chat's cards for a tool's questions, loaded with the first question: their module brings
 * the chat's model streaming, which `tools list` and `tools check` never need.
 */
export function lazyChatInteractions(sessions: () => Promise<SessionManager>, options: { openUrl?: (url: string) => Promise<boolean> }): McpInteractions {
  let loaded: Promise<McpInteractions> | undefined;
  const load = () => (loaded ??= import('./host/mcp-asks/mcp-chat-interactions.ts').then((m) => m.chatMcpInteractions(sessions, options)));
  return {
    elicit: async (ask, signal) => (await load()).elicit!(ask, signal),
    sample: async (ask, signal) => (await load()).sample!(ask, signal),
  };
}

/** The settings as a store that holds only the MCP servers named in `names`. */
export function onlyServers(store: SettingsStore, names: string[]): { get(): Settings; onDidChange(listener: (next: Settings) => void): () => void } {
  const pick = (current: Settings): Settings => ({ ...current, mcpServers: Object.fromEntries(Object.entries(current.mcpServers).filter(([name]) => names.includes(name))) });
  return { get: () => pick(store.get()), onDidChange: (listener) => store.onDidChange((next) => listener(pick(next))) };
}

/** A server names the sign-in page: only web pages are handed to the browser (never file:, javascript: …). */
export function webOnly(open: (url: string) => Promise<boolean>): (url: string) => Promise<boolean> {
  return async (url) => {
    let protocol: string;
    try {
      protocol = new URL(url).protocol;
    } catch {
      return false;
    }
    return protocol === 'https:' || protocol === 'http:' ? open(url) : false;
  };
}
