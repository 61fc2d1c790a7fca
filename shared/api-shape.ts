// A tiny runtime shape checker for API requests. Hand-written (no ajv) so the preload and the
// renderer can import it without pulling a schema compiler; shapes are plain data.

export type Shape =
  | { kind: 'string'; max: number; min?: number; values?: readonly string[] }
  | { kind: 'number'; integer?: boolean; min?: number; max?: number }
  | { kind: 'boolean' }
  | { kind: 'object'; props: Record<string, Shape>; optional: readonly string[] }
  | { kind: 'record'; values: Shape; maxKeys: number }
  | { kind: 'array'; items: Shape; maxItems: number }
  /** Any JSON value (its size is bounded by the transport). */
  | { kind: 'json' }
  | { kind: 'nullable'; inner: Shape };

export const str = (max: number, min = 0): Shape => ({ kind: 'string', max, min });
export const oneOf = (values: readonly string[]): Shape => ({ kind: 'string', max: 256, values });
export const num = (opts: { integer?: boolean; min?: number; max?: number } = {}): Shape => ({ kind: 'number', ...opts });
export const bool = (): Shape => ({ kind: 'boolean' });
export const json = (): Shape => ({ kind: 'json' });
export const record = (values: Shape, maxKeys = 10_000): Shape => ({ kind: 'record', values, maxKeys });
export const list = (items: Shape, maxItems: number): Shape => ({ kind: 'array', items, maxItems });
/** `inner`, or null. */
export const nullable = (inner: Shape): Shape => ({ kind: 'nullable', inner });
/** An object with exactly these keys; names listed in `optional` may be absent (or undefined). */
export const obj = (props: Record<string, Shape>, optional: readonly string[] = []): Shape => ({ kind: 'object', props, optional });

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/** Returns null when `value` fits `shape`, else a message naming the first bad path. */
export function checkShape(shape: Shape, value: unknown, path = 'request'): string | null {
  switch (shape.kind) {
    case 'string':
      if (typeof value !== 'string') return `${path}: expected a string`;
      if (value.length > shape.max) return `${path}: longer than ${shape.max} characters`;
      if (shape.min !== undefined && value.length < shape.min) return `${path}: must not be empty`;
      if (shape.values && !shape.values.includes(value)) return `${path}: expected one of ${shape.values.join(', ')}`;
      return null;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${path}: expected a number`;
      if (shape.integer && !Number.isInteger(value)) return `${path}: expected an integer`;
      if (shape.min !== undefined && value < shape.min) return `${path}: must be at least ${shape.min}`;
      if (shape.max !== undefined && value > shape.max) return `${path}: must be at most ${shape.max}`;
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : `${path}: expected true or false`;
    case 'json':
      return value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint'
        ? `${path}: expected a JSON value`
        : null;
    case 'nullable':
      return value === null ? null : checkShape(shape.inner, value, path);
    case 'record': {
      if (!isPlainObject(value)) return `${path}: expected an object`;
      const keys = Object.keys(value);
      if (keys.length > shape.maxKeys) return `${path}: more than ${shape.maxKeys} entries`;
      for (const key of keys) {
        const problem = checkShape(shape.values, value[key], `${path}.${key}`);
        if (problem) return problem;
      }
      return null;
    }
    case 'array': {
      if (!Array.isArray(value)) return `${path}: expected a list`;
      if (value.length > shape.maxItems) return `${path}: more than ${shape.maxItems} items`;
      for (let i = 0; i < value.length; i++) {
        const problem = checkShape(shape.items, value[i], `${path}[${i}]`);
        if (problem) return problem;
      }
      return null;
    }
    case 'object': {
      if (!isPlainObject(value)) return `${path}: expected an object`;
      for (const key of Object.keys(value)) {
        if (!(key in shape.props) || key === '__proto__') return `${path}: unknown field "${key}"`;
      }
      for (const [key, propShape] of Object.entries(shape.props)) {
        const v = value[key];
        if (v === undefined) {
          if (shape.optional.includes(key)) continue;
          return `${path}.${key}: required`;
        }
        const problem = checkShape(propShape, v, `${path}.${key}`);
        if (problem) return problem;
      }
      return null;
    }
  }
}
