// The answer an elicitation form gets when nobody changes anything: each field's `default`.
// Used to pre-fill the chat's form card, and by non-interactive clients (conformance runs).

export type FormValue = string | number | boolean | string[];

const isFormValue = (v: unknown): v is FormValue =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || (Array.isArray(v) && v.every((x) => typeof x === 'string'));

export function formDefaults(schema: unknown): Record<string, FormValue> {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (!properties || typeof properties !== 'object') return {};
  const out: Record<string, FormValue> = {};
  for (const [name, field] of Object.entries(properties as Record<string, unknown>)) {
    const value = (field as { default?: unknown } | null)?.default;
    if (isFormValue(value)) out[name] = value;
  }
  return out;
}
