// The answer an elicitation form gets when nobody changes anything: each field's `default`.
// Used to pre-fill the chat's form card, and by non-interactive clients (conformance runs).

export function formDefaults(schema: unknown): Record<string, unknown> {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (!properties || typeof properties !== 'object') return {};
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(properties as Record<string, unknown>)) {
    const value = (field as { default?: unknown } | null)?.default;
    if (value !== undefined) out[name] = value;
  }
  return out;
}
