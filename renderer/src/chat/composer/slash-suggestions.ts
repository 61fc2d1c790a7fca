// Typing `/` in the message box suggests tools by name and description. Pure, so it is tested
// without a DOM: a name that starts with the typed word ranks first, then names containing it,
// then tools whose description has every typed word.
import type { McpPromptInfo } from '../../../../shared/mcp.ts';
import type { ToolInfo } from '../../../../shared/tools.ts';

/** The word being typed after a leading `/`, or null when the text is not a slash command in progress. */
export function slashQuery(text: string): string | null {
  const match = /^\/([^\s{]*)$/.exec(text);
  return match ? match[1]! : null;
}

export function suggestTools(query: string, tools: ToolInfo[], max = 8): ToolInfo[] {
  const q = query.toLowerCase();
  const words = q.split(/[\s_\-.]+/).filter(Boolean);
  const scored: { tool: ToolInfo; score: number }[] = [];
  for (const tool of tools) {
    const name = tool.modelName.toLowerCase();
    const description = tool.description.toLowerCase();
    let score = 0;
    if (q === '') score = 1;
    else if (name.startsWith(q)) score = 4;
    else if (name.includes(q)) score = 3;
    else if (words.length > 0 && words.every((w) => name.includes(w) || description.includes(w))) score = 2;
    if (score > 0) scored.push({ tool, score });
  }
  return scored
    .sort((a, b) => b.score - a.score || a.tool.modelName.localeCompare(b.tool.modelName))
    .slice(0, max)
    .map((s) => s.tool);
}

/**
 * `/toolset NAME` for each tool set (and `/toolset none`) while the typed word starts "toolset":
 * a chat picks its set from the menu as with the header's select.
 */
export function suggestToolSets(query: string, names: string[]): string[] {
  const q = query.toLowerCase();
  if (names.length === 0 || q.length < 2 || !'toolset'.startsWith(q)) return [];
  return [...names.map((name) => `/toolset ${name}`), '/toolset none'];
}

/** MCP prompts (`/server:prompt`) for the typed word, ranked like tools by command, title and description. */
export function suggestPrompts(query: string, prompts: McpPromptInfo[], max = 8): McpPromptInfo[] {
  const q = query.toLowerCase();
  const words = q.split(/[\s_\-.:]+/).filter(Boolean);
  const scored: { prompt: McpPromptInfo; score: number }[] = [];
  for (const prompt of prompts) {
    const name = prompt.command.toLowerCase();
    const text = `${prompt.title ?? ''} ${prompt.description ?? ''}`.toLowerCase();
    let score = 0;
    const colon = q.indexOf(':');
    if (colon >= 0) {
      // `server:…` names the server: only its prompts.
      const [server, rest] = [q.slice(0, colon), q.slice(colon + 1)];
      if (prompt.server.toLowerCase() === server && prompt.name.toLowerCase().startsWith(rest)) score = 4;
      else if (prompt.server.toLowerCase() === server && prompt.name.toLowerCase().includes(rest)) score = 3;
    } else if (q === '') score = 1;
    else if (name.startsWith(q) || prompt.name.toLowerCase().startsWith(q)) score = 4;
    else if (name.includes(q)) score = 3;
    else if (words.length > 0 && words.every((w) => name.includes(w) || text.includes(w))) score = 2;
    if (score > 0) scored.push({ prompt, score });
  }
  return scored
    .sort((a, b) => b.score - a.score || a.prompt.command.localeCompare(b.prompt.command))
    .slice(0, max)
    .map((s) => s.prompt);
}

/** How a prompt's arguments read in the `/` menu and the hint: `city* state`. */
export function promptUsage(prompt: McpPromptInfo): string {
  return prompt.arguments.map((a) => `${a.name}=${a.required ? '…' : '[…]'}`).join(' ');
}

/** Each distinct `$VAR_REF{{name}}` (slices too) in the user's text: the name and the whole reference. */
export function varRefsIn(text: string): { ref: string; name: string; inner: string }[] {
  const seen = new Set<string>();
  const out: { ref: string; name: string; inner: string }[] = [];
  for (const match of text.matchAll(/\$VAR_REF\{\{([^{}]*)\}\}/g)) {
    if (seen.has(match[0])) continue;
    seen.add(match[0]);
    const inner = match[1]!.trim();
    // `name:start:length` / `name:start` read a slice of `name`.
    const name = /^(.+?)(?::\s*-?\d+){1,2}$/.exec(inner)?.[1]?.trim() ?? inner;
    out.push({ ref: match[0], name, inner });
  }
  return out;
}
