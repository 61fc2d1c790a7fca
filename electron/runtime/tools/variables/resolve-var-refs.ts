// `$VAR_REF{{name}}` / `$VAR_REF{{name:start:length}}` in argument strings (seed 002): the model
// passes a stored value (a big tool result, a rule) to a tool without copying it through its
// context. Values may themselves hold references; those expand too, with cycle detection and a
// cap on the expanded size so a reference bomb fails clearly instead of eating memory.
import { closeNamesHint } from '../close-names.ts';
import { sliceCodePoints } from '../../base/code-points.ts';

export const DEFAULT_MAX_EXPANDED_CHARS = 16 * 1024 * 1024;

/** What resolution reads from; a VariableSystem fits. */
export interface VarRefSource {
  get(name: string): { value: unknown } | undefined;
  has?(name: string): boolean;
  names(): Iterable<string>;
}

export interface ResolveVarRefsOptions {
  /** Bound on the characters all expansions may produce together (default 16 Mi). */
  maxExpandedChars?: number;
}

export type ResolveVarRefsResult<T> =
  | { ok: true; value: T; refs: string[] }
  | { ok: false; error: string };

const MARKER = '$VAR_REF{{';
const REF = /\$VAR_REF\{\{([^{}]*)\}\}/g;

class VarRefError extends Error {}

interface ParsedRef {
  name: string;
  start?: number;
  length?: number;
}

/** Returns `args` with every reference in its string values replaced; never throws. */
export function resolveVarRefs<T>(
  args: T,
  source: VarRefSource,
  options: ResolveVarRefsOptions = {},
): ResolveVarRefsResult<T> {
  // The usual call holds no reference: nothing to copy and no resolver to make.
  try {
    if (!hasVarRefs(args)) return { ok: true, value: args, refs: [] };
  } catch {
    // Nested too deep to scan: the walk below reports it.
  }
  const resolver = new Resolver(source, options.maxExpandedChars ?? DEFAULT_MAX_EXPANDED_CHARS);
  try {
    const value = resolver.walk(args) as T;
    return { ok: true, value, refs: [...resolver.refs] };
  } catch (error) {
    if (error instanceof VarRefError) return { ok: false, error: error.message };
    if (error instanceof RangeError) {
      return { ok: false, error: `$VAR_REF expansion failed: ${error.message}.` };
    }
    throw error;
  }
}

/** True when a value holds a reference anywhere (cheap pre-check). */
export function hasVarRefs(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(MARKER);
  if (Array.isArray(value)) return value.some(hasVarRefs);
  if (isPlainObject(value)) return Object.values(value).some(hasVarRefs);
  return false;
}

class Resolver {
  readonly refs = new Set<string>();
  private readonly expanded = new Map<string, string>();
  private readonly stack: string[] = [];
  private produced = 0;

  constructor(
    private readonly source: VarRefSource,
    private readonly cap: number,
  ) {}

  /** Copies only what changes; untouched branches are returned as they are. */
  walk(value: unknown): unknown {
    if (typeof value === 'string') {
      if (!value.includes(MARKER)) return value;
      const out = this.expandString(value);
      this.count(out.length);
      return out;
    }
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((item) => {
        const next = this.walk(item);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? out : value;
    }
    if (isPlainObject(value)) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const next = this.walk(item);
        if (next !== item) changed = true;
        out[key] = next;
      }
      return changed ? out : value;
    }
    return value;
  }

  private expandString(text: string): string {
    if (!text.includes(MARKER)) return text;
    let out = '';
    let last = 0;
    for (const match of text.matchAll(REF)) {
      out += text.slice(last, match.index);
      out += this.expandRef(match[1]!.trim(), match[0]);
      last = match.index + match[0].length;
      this.checkSize(out.length);
    }
    out += text.slice(last);
    this.checkSize(out.length);
    return out;
  }

  private expandRef(inner: string, written: string): string {
    const ref = this.parse(inner);
    const value = this.expandVariable(ref.name, written);
    if (ref.start === undefined && ref.length === undefined) return value;
    return sliceCodePoints(value, ref.start ?? 0, ref.length);
  }

  private expandVariable(name: string, written: string): string {
    const at = this.stack.indexOf(name);
    if (at >= 0) {
      const cycle = [...this.stack.slice(at), name].join(' → ');
      throw new VarRefError(`$VAR_REF cycle: ${cycle}. A variable cannot refer to itself, directly or through others.`);
    }
    const known = this.expanded.get(name);
    if (known !== undefined) return known;
    const variable = this.source.get(name);
    if (variable === undefined) {
      const from = this.stack.length ? ` (inside variable "${this.stack[this.stack.length - 1]}")` : '';
      throw new VarRefError(
        `Unknown variable "${name}" in ${written}${from}.${closeNamesHint(name, this.source.names())} ` +
          'Use ListVars to see which variables exist.',
      );
    }
    this.refs.add(name);
    this.stack.push(name);
    const value = this.expandString(stringify(variable.value));
    this.stack.pop();
    this.expanded.set(name, value);
    return value;
  }

  /** `name`, else `name:start:length`, else `name:start` (names may contain colons). */
  private parse(inner: string): ParsedRef {
    if (this.exists(inner)) return { name: inner };
    const both = /^(.+):\s*(-?\d+)\s*:\s*(-?\d+)$/.exec(inner);
    if (both) return { name: both[1]!.trim(), start: Number(both[2]), length: Number(both[3]) };
    const startOnly = /^(.+):\s*(-?\d+)$/.exec(inner);
    if (startOnly) return { name: startOnly[1]!.trim(), start: Number(startOnly[2]) };
    return { name: inner };
  }

  private exists(name: string): boolean {
    return this.source.has ? this.source.has(name) : this.source.get(name) !== undefined;
  }

  private count(length: number): void {
    this.produced += length;
    this.checkSize(this.produced);
  }

  private checkSize(length: number): void {
    if (length > this.cap) {
      const via = this.stack.length ? ` (while expanding ${this.stack.join(' → ')})` : '';
      throw new VarRefError(
        `$VAR_REF expansion is larger than the limit of ${this.cap} characters${via}. ` +
          'Reference a slice instead: $VAR_REF{{name:start:length}}.',
      );
    }
  }
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
