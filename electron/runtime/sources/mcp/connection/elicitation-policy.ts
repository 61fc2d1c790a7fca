// The spec reserves secrets for URL-mode elicitation: a form that asks for a password, a token or
// a key is refused before the user sees it, so a server cannot phish through an inline card.

const SECRET_WORD = /(^|[^a-z])(password|passphrase|passwd|secret|api[-_ ]?key|access[-_ ]?token|auth[-_ ]?token|token|private[-_ ]?key|credentials?|pin|otp|cvv|ssn)([^a-z]|$)/i;
const words = (text: string) => text.replace(/([a-z])([A-Z])/g, '$1 $2');

/** The first field of a requested form schema that looks like a secret, if any. */
export function asksForSecret(schema: unknown): string | undefined {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (!properties || typeof properties !== 'object') return undefined;
  for (const [name, field] of Object.entries(properties as Record<string, unknown>)) {
    const f = (field ?? {}) as Record<string, unknown>;
    const label = [name, typeof f.title === 'string' ? f.title : ''].map(words).join(' ');
    if (f.format === 'password' || f.writeOnly === true || SECRET_WORD.test(label)) return name;
  }
  return undefined;
}
