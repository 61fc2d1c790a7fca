// Dotted key paths into plain JSON objects ("limits.maxSteps"), for settings and `tooldesk config`.

export type JsonObject = Record<string, unknown>;

export const isPlainObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Keys that reach JavaScript's object machinery instead of a setting: `a.__proto__.b` would be
// set on a prototype (and dropped), `constructor` reads as a function where a key is absent.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Why `path` cannot be a key path, or undefined when it can. */
export function keyPathProblem(path: string): string | undefined {
  const parts = path.split('.');
  if (parts.some((p) => p === '')) return `"${path}" is not a valid key path (empty segment)`;
  const forbidden = parts.find((p) => FORBIDDEN_KEYS.has(p));
  if (forbidden) return `"${path}" is not a valid key path: "${forbidden}" cannot be a key (__proto__, constructor and prototype are refused)`;
  return undefined;
}

/** The dotted path of the first forbidden key inside a JSON value (`{"__proto__": …}`), if any. */
export function forbiddenKeyIn(value: unknown, at = ''): string | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = forbiddenKeyIn(value[i], at ? `${at}.${i}` : String(i));
      if (found) return found;
    }
  } else if (isPlainObject(value)) {
    for (const [key, inner] of Object.entries(value)) {
      const path = at ? `${at}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key)) return path;
      const found = forbiddenKeyIn(inner, path);
      if (found) return found;
    }
  }
  return undefined;
}

export function splitPath(path: string): string[] {
  const problem = keyPathProblem(path);
  if (problem) throw new Error(problem);
  return path.split('.');
}

const isIndex = (part: string) => /^(0|[1-9]\d*)$/.test(part);

/** The value at `path`; list items are addressed by index ("providers.0.model"). */
export function getPath(root: unknown, path: string): unknown {
  let node: unknown = root;
  for (const part of splitPath(path)) {
    if (Array.isArray(node) && isIndex(part)) node = node[Number(part)];
    else if (isPlainObject(node) && Object.hasOwn(node, part)) node = node[part];
    else return undefined;
  }
  return node;
}

/**
 * A copy of `root` with `path` set to `value`; intermediate objects are created as needed. A list
 * item is set by index; the index one past the end appends. Throws for an index out of range.
 */
export function withPath<T extends JsonObject>(root: T, path: string, value: unknown): T {
  const parts = splitPath(path);
  const set = (node: unknown, at: number): unknown => {
    const part = parts[at]!;
    const last = at === parts.length - 1;
    if (Array.isArray(node)) {
      if (!isIndex(part) || Number(part) > node.length) {
        const where = parts.slice(0, at).join('.');
        throw new Error(`"${path}" is not a valid key path: ${where} is a list of ${node.length}; use an index from 0 to ${node.length} (${node.length} appends)`);
      }
      const copy = [...node];
      copy[Number(part)] = last ? value : set(node[Number(part)], at + 1);
      return copy;
    }
    const base: JsonObject = isPlainObject(node) ? node : {};
    return { ...base, [part]: last ? value : set(base[part], at + 1) };
  };
  return set(root, 0) as T;
}

/** Deep-merges plain objects; arrays and other values in `patch` replace. */
export function deepMerge<T extends JsonObject>(base: T, patch: JsonObject): T {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || FORBIDDEN_KEYS.has(key)) continue;
    out[key] = isPlainObject(value) && isPlainObject(base[key]) ? deepMerge(base[key] as JsonObject, value) : value;
  }
  return out as T;
}
