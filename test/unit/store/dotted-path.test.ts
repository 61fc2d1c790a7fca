import { describe, expect, it } from 'vitest';
import { deepMerge, forbiddenKeyIn, getPath, keyPathProblem, withPath } from '../../../electron/runtime/store/dotted-path.ts';

describe('dotted key paths', () => {
  it.each(['a.__proto__.b', '__proto__', 'sandbox.perTool.__proto__', 'groupDefaults.constructor', 'limits.prototype'])(
    'refuses %s by name, for reading and writing',
    (path) => {
      const segment = path.split('.').find((p) => ['__proto__', 'constructor', 'prototype'].includes(p));
      expect(keyPathProblem(path)).toMatch(new RegExp(`"${segment}" cannot be a key`));
      expect(() => withPath({ a: {} }, path, 5)).toThrow(/not a valid key path/);
      expect(() => getPath({ a: {} }, path)).toThrow(/not a valid key path/);
    },
  );

  it('still takes ordinary keys that merely contain those words', () => {
    expect(keyPathProblem('groupDefaults.my_constructor')).toBeUndefined();
    expect(withPath({ g: {} }, 'g.prototypes', true)).toEqual({ g: { prototypes: true } });
  });

  it('finds a forbidden key anywhere inside a JSON value, and deepMerge never sets one', () => {
    const hostile = JSON.parse('{"ok": 1, "list": [{"__proto__": {"polluted": true}}]}');
    expect(forbiddenKeyIn(hostile)).toBe('list.0.__proto__');
    expect(forbiddenKeyIn({ a: { b: [1, 2] } })).toBeUndefined();
    const merged = deepMerge({ limits: { maxSteps: 1 } }, JSON.parse('{"limits": {"__proto__": {"polluted": true}, "maxSteps": 2}}'));
    expect(merged).toEqual({ limits: { maxSteps: 2 } });
    expect(Object.getPrototypeOf(merged.limits)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
