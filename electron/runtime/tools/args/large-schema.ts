// Bounds the work of validating against a very wide schema. ajv generates code per subschema, so
// compiling 50 000 parameters takes seconds; a call only ever touches the properties it passes,
// so a wide schema is cut down to those (plus everything else it says) before compiling.

/** Subschemas above which a schema counts as large (ajv compiles ~1000 of them in ~0.5 s here). */
export const MAX_SCHEMA_NODES = 1000;

/** Counts the objects in a schema, stopping once past `cap`; cycles are counted once. */
export function schemaNodeCount(schema: unknown, cap = MAX_SCHEMA_NODES): number {
  const seen = new Set<object>();
  const stack: unknown[] = [schema];
  while (stack.length > 0 && seen.size <= cap) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    for (const child of Object.values(value)) if (child !== null && typeof child === 'object') stack.push(child);
  }
  return seen.size;
}

/**
 * The schema with its top-level `properties` narrowed to the keys present in `args`. It accepts
 * and rejects exactly what the whole schema does for these args: `required` still lists every
 * name, and a key missing from `properties` was missing before too (additionalProperties and
 * patternProperties are kept). Undefined when the schema has no `properties` to narrow.
 */
export function narrowToArgs(schema: object, args: Record<string, unknown>): object | undefined {
  const properties = (schema as { properties?: unknown }).properties;
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return undefined;
  const kept = Object.keys(args)
    .filter((key) => Object.hasOwn(properties, key))
    .map((key) => [key, (properties as Record<string, unknown>)[key]]);
  return { ...schema, properties: Object.fromEntries(kept) };
}
