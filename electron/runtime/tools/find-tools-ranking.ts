// FindTools' ranking: BM25 over each tool's name, description and parameter names and
// descriptions. Name words count three times and parameter names twice, so `read_csv` beats a
// tool that merely mentions CSV once. Pure; the index is built once per set of definitions.
import type { ToolDefinition } from '../../../shared/tools.ts';

const K1 = 1.2;
const B = 0.75;
const NAME_WEIGHT = 3;
const PARAM_NAME_WEIGHT = 2;

/** Lower-case words: camelCase, snake_case, kebab-case and dotted names split; digits kept. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0)
    .map(stem);
}

/** A light stemmer: plural and -ing/-ed forms meet their base word ("files" finds "file"). */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

interface Doc {
  definition: ToolDefinition;
  terms: Map<string, number>;
  length: number;
}

export interface ToolSearchHit {
  definition: ToolDefinition;
  score: number;
}

function weightedTerms(definition: ToolDefinition): Map<string, number> {
  const terms = new Map<string, number>();
  const add = (text: string, weight: number) => {
    for (const token of tokenize(text)) terms.set(token, (terms.get(token) ?? 0) + weight);
  };
  const fn = definition.function;
  add(fn.name, NAME_WEIGHT);
  add(fn.description ?? '', 1);
  const properties = (fn.parameters?.properties ?? {}) as Record<string, { description?: unknown }>;
  for (const [param, schema] of Object.entries(properties)) {
    add(param, PARAM_NAME_WEIGHT);
    if (schema && typeof schema.description === 'string') add(schema.description, 1);
  }
  return terms;
}

export class ToolSearchIndex {
  readonly #docs: Doc[];
  readonly #docFreq = new Map<string, number>();
  readonly #avgLength: number;

  constructor(definitions: ToolDefinition[]) {
    this.#docs = definitions.map((definition) => {
      const terms = weightedTerms(definition);
      let length = 0;
      for (const count of terms.values()) length += count;
      return { definition, terms, length };
    });
    for (const doc of this.#docs) for (const term of doc.terms.keys()) this.#docFreq.set(term, (this.#docFreq.get(term) ?? 0) + 1);
    this.#avgLength = this.#docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, this.#docs.length);
  }

  get size(): number {
    return this.#docs.length;
  }

  /** The best `limit` matches, best first; ties keep the definitions' order. Empty for no match. */
  search(query: string, limit = 5): ToolSearchHit[] {
    const queryTerms = [...new Set(tokenize(query))];
    if (queryTerms.length === 0) return [];
    const n = this.#docs.length;
    const exact = query.trim().toLowerCase();
    const hits: ToolSearchHit[] = [];
    for (const doc of this.#docs) {
      let score = 0;
      for (const term of queryTerms) {
        const tf = doc.terms.get(term);
        if (!tf) continue;
        const df = this.#docFreq.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / this.#avgLength));
      }
      // Asking for a tool by its exact name finds it first.
      if (doc.definition.function.name.toLowerCase() === exact) score += 100;
      if (score > 0) hits.push({ definition: doc.definition, score });
    }
    // Array.prototype.sort is stable: equal scores keep the definitions' order.
    return hits.sort((a, b) => b.score - a.score).slice(0, Math.max(0, limit));
  }
}
