// How many tools a ready MCP server lists, said the same way in Settings and in
// `tooldesk mcp list --status`, with why the two may count differently: servers list some tools
// only to a client that offers elicitation or sampling (the app does, the CLI does not), tools
// only for apps never reach the model, and tools switched off in Tools are not offered.

/** Client capabilities that servers list extra tools for. */
export type McpClientOffer = 'elicitation' | 'sampling';

export interface McpToolCount {
  /** Tools the server listed. */
  tools: number;
  /** Of those, the ones whose `_meta.ui.visibility` leaves out "model" (only its apps call them). */
  appOnlyTools?: number;
  /** Of those, the ones switched off in Tools. */
  switchedOffTools?: number;
  /** What this client offered when the server listed them. */
  offered?: McpClientOffer[];
}

const ALL_OFFERS: McpClientOffer[] = ['elicitation', 'sampling'];

/** "14 tools (2 only for apps, 1 switched off)". */
export function mcpToolCountText(count: McpToolCount): string {
  const parts = [
    count.appOnlyTools ? `${count.appOnlyTools} only for apps` : '',
    count.switchedOffTools ? `${count.switchedOffTools} switched off` : '',
  ].filter(Boolean);
  return `${count.tools} tool${count.tools === 1 ? '' : 's'}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/** Why the app and `mcp list --status` may count differently, for the one that is reading; '' when they offer the same. */
export function mcpOfferNote(offered: McpClientOffer[] | undefined, reader: 'app' | 'cli'): string {
  const given = ALL_OFFERS.filter((o) => offered?.includes(o));
  const missing = ALL_OFFERS.filter((o) => !given.includes(o));
  if (reader === 'cli') {
    return missing.length ? `counted without ${missing.join(' or ')}, which the app offers: a server that lists tools for ${missing.length > 1 ? 'them' : 'it'} shows more there` : '';
  }
  return given.length ? `Counted with ${given.join(' and ')} offered; tooldesk mcp list --status offers neither, so a server that lists tools for ${given.length > 1 ? 'them' : 'it'} shows fewer there.` : '';
}

/** Tools of `server` switched off in Tools (their callable names start with `server__`). */
export function switchedOffTools(toolDefaults: Record<string, boolean>, server: string): number {
  return Object.entries(toolDefaults).filter(([name, on]) => on === false && name.startsWith(`${server}__`)).length;
}
