// The context window a server states in its /v1/models entry. No standard field exists: OpenRouter
// sends `context_length` (and `top_provider.context_length`), vLLM `max_model_len`, LM Studio's
// REST API `max_context_length`, Groq `context_window`, llama.cpp's server `meta.n_ctx_train`.
// Anything that is not a positive whole number is ignored (unknown, never a guess).

const FIELDS = ['context_length', 'max_model_len', 'max_context_length', 'context_window'] as const;

const tokens = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);

function field(entry: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = entry[key];
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}

/** The window, in tokens, stated by one model entry of a server's model list. */
export function listedContextWindow(entry: unknown): number | undefined {
  if (!entry || typeof entry !== 'object') return undefined;
  const model = entry as Record<string, unknown>;
  for (const key of FIELDS) {
    const found = tokens(model[key]);
    if (found) return found;
  }
  return tokens(field(model, 'top_provider')?.context_length) ?? tokens(field(model, 'meta')?.n_ctx_train);
}
