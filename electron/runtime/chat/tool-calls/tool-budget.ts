// Hundreds of tools without flooding the context. When the offered definitions exceed
// `limits.toolDefinitionBudgetChars`, a request carries ReadVar/ListVars, the chat's pinned
// tools, the tools FindTools found earlier in this chat, and FindTools itself; FindTools returns
// the best matching definitions and makes them callable (offered) from the next step on.
import { FIND_TOOLS } from '../../../../shared/tool-selection.ts';
import type { ToolDefinition, ToolExecuteResult } from '../../../../shared/tools.ts';
import { ToolSearchIndex } from '../../tools/find-tools-ranking.ts';
import { LIST_VARS, READ_VAR } from '../../tools/variables/vars-tools.ts';

export const FIND_TOOLS_DEFAULT_LIMIT = 5;
export const FIND_TOOLS_MAX_LIMIT = 20;

export const FIND_TOOLS_DEFINITION: ToolDefinition = {
  type: 'function',
  function: {
    name: FIND_TOOLS,
    description:
      'Search the tools available in this chat that are not listed yet. Returns the best matching tool definitions ' +
      '(name, description, parameters); the tools it returns can be called from your next step.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the tool should do, in a few words (e.g. "convert csv to json"), or a tool name' },
        limit: { type: 'integer', minimum: 1, maximum: FIND_TOOLS_MAX_LIMIT, description: `How many tools to return (default ${FIND_TOOLS_DEFAULT_LIMIT})` },
      },
      required: ['query'],
    },
  },
};

export interface OfferedTools {
  tools: ToolDefinition[];
  /** The definitions did not fit: FindTools stands in for the rest. */
  budgetMode: boolean;
  /** Characters of all enabled definitions as JSON. */
  totalChars: number;
  /** For the system prompt in budget mode. */
  rule?: string;
}

/** Characters the definitions take in a request body (as JSON). */
export const definitionChars = (tools: ToolDefinition[]): number => JSON.stringify(tools).length;

export class ToolBudget {
  /** Model names FindTools returned in this chat: offered from then on. */
  readonly #found: Set<string>;
  #cache: { tools: ToolDefinition[]; chars: number; index?: ToolSearchIndex } | undefined;

  /** `found`: what FindTools found earlier in this chat (a reopened session's). */
  constructor(found: Iterable<string> = []) {
    this.#found = new Set(found);
  }

  /** The model names FindTools found so far, to save with the chat. */
  found(): string[] {
    return [...this.#found];
  }

  /** What one request offers. `pinned`: model names sent in full whatever the budget. */
  offer(all: ToolDefinition[], pinned: ReadonlySet<string>, budgetChars: number): OfferedTools {
    const cache = this.#cached(all);
    if (all.length === 0 || cache.chars <= budgetChars) return { tools: all, budgetMode: false, totalChars: cache.chars };
    const keep = (d: ToolDefinition) => {
      const name = d.function.name;
      return name === READ_VAR || name === LIST_VARS || pinned.has(name) || this.#found.has(name);
    };
    const tools = [...all.filter(keep), FIND_TOOLS_DEFINITION];
    const hidden = all.length - (tools.length - 1);
    const rule =
      `## Finding tools\nThis chat has ${all.length} tools; ${hidden} of them are not listed, to keep the request small. ` +
      `When none of the listed tools fits, call ${FIND_TOOLS} with a few words saying what you need. ` +
      'It returns matching tool definitions; call the one you need in your next step, with arguments that fit its parameters.';
    return { tools, budgetMode: true, totalChars: cache.chars, rule };
  }

  /** Answers a FindTools call over the chat's enabled definitions; what it finds is offered from then on. */
  find(args: unknown, all: ToolDefinition[]): ToolExecuteResult {
    const raw = (args && typeof args === 'object' ? args : {}) as { query?: unknown; limit?: unknown };
    if (typeof raw.query !== 'string' || raw.query.trim() === '') {
      const message = `${FIND_TOOLS} needs a "query": a few words saying what the tool should do.`;
      return { toolName: FIND_TOOLS, status: 'ERROR', error: message, finalText: message };
    }
    const limit = typeof raw.limit === 'number' && Number.isInteger(raw.limit) ? Math.min(FIND_TOOLS_MAX_LIMIT, Math.max(1, raw.limit)) : FIND_TOOLS_DEFAULT_LIMIT;
    const searchable = all.filter((d) => d.function.name !== FIND_TOOLS);
    const cache = this.#cached(all);
    cache.index ??= new ToolSearchIndex(searchable);
    const hits = cache.index.search(raw.query, limit);
    if (hits.length === 0) {
      const text = `No tool matches "${raw.query}". Try other words (what the tool does, or a likely name).`;
      return { toolName: FIND_TOOLS, status: 'SUCCESS', data: [], formattedText: text, finalText: text };
    }
    for (const hit of hits) this.#found.add(hit.definition.function.name);
    const found = hits.map((h) => h.definition.function);
    const text =
      `Found ${found.length} tool${found.length === 1 ? '' : 's'} for "${raw.query}"; ${found.length === 1 ? 'it is' : 'they are'} callable from your next step:\n` +
      JSON.stringify(found, null, 1);
    return { toolName: FIND_TOOLS, status: 'SUCCESS', data: found, formattedText: text, finalText: text };
  }

  /** Definitions are rebuilt only when the catalog changed (same objects otherwise). */
  #cached(all: ToolDefinition[]): { tools: ToolDefinition[]; chars: number; index?: ToolSearchIndex } {
    const c = this.#cache;
    if (c && c.tools.length === all.length && c.tools.every((d, i) => d === all[i])) return c;
    this.#cache = { tools: all, chars: definitionChars(all) };
    return this.#cache;
  }
}
