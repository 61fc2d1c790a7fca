// How the runtime wires its MCP servers to the rest: a tool's questions go to the chat's cards
// (loaded with the first question), a settings view holding only some servers, and the sign-in
// pages a server may open (web pages only).
import type { Settings } from '../../shared/settings.ts';
import type { SessionManager } from './chat/session-manager.ts';
import type { McpInteractions } from './sources/mcp/types.ts';
import type { SettingsStore } from './store/settings-store.ts';

/**
 * The chat's cards for a tool's questions, loaded with the first question: their module brings
 * the chat's model streaming, which `tools list` and `tools check` never need.
 */
export function lazyChatInteractions(sessions: () => Promise<SessionManager>, options: { openUrl?: (url: string) => Promise<boolean> }): McpInteractions {
  let loaded: Promise<McpInteractions> | undefined;
  const load = () => (loaded ??= import('./host/mcp-chat-interactions.ts').then((m) => m.chatMcpInteractions(sessions, options)));
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
