// The per-session variable store (seed 002's VariableSystem): tool results, arguments, notes and
// skill rules addressable by name. Non-rule entries are evicted least-recently-used first once
// an entry bound or a byte bound is passed; RULE entries are kept for as long as they exist.
import type {
  SerializedVariables,
  Variable,
  VariableChange,
  VariableInfo,
  VariablePage,
  VariableQuery,
  VariableType,
} from '../../../../shared/variables.ts';
import { VARIABLE_TYPES } from '../../../../shared/variables.ts';
import type { VariableSlice } from '../../../../shared/api.ts';
import { DEFAULT_LIMITS } from '../../../../shared/settings.ts';
import { Emitter } from '../../base/emitter.ts';
import { countCodePoints, sliceCodePoints } from '../../base/code-points.ts';

export const DEFAULT_MAX_VARIABLES = DEFAULT_LIMITS.variableMaxEntries;
export const DEFAULT_MAX_VARIABLE_BYTES = DEFAULT_LIMITS.variableMaxBytes;

export interface VariableSystemOptions {
  /** Bound on non-RULE entries (default 1000). */
  maxEntries?: number;
  /** Bound on the UTF-8 size of all non-RULE values (default 64 MiB). */
  maxBytes?: number;
  now?: () => number;
}

export interface AddVariableOptions {
  tags?: string[];
  desc?: string;
}

/**
 * `length` code points of a variable's value from code point `start`, so a surrogate pair is
 * never split (sizes count characters): a start past the end gives '', no length reads to the end.
 */
export function sliceVariable(variable: Variable, start = 0, length?: number): VariableSlice {
  const { value, ...info } = variable;
  const total = countCodePoints(value);
  const from = Math.min(Math.max(0, start), total);
  return { variable: info, value: sliceCodePoints(value, from, length), start: from, total };
}

/** Contract: called synchronously after each change; a listener that throws is ignored. */
export type VariableChangeListener = (change: VariableChange) => void;

interface Entry {
  variable: Variable;
  bytes: number;
  /** Lower-cased name, desc and tags: what `search` matches against (made by the first search). */
  haystack?: string;
  /** Neighbours in the eviction order (non-rule entries only). */
  older?: Entry;
  newer?: Entry;
}

export class VariableSystem {
  readonly maxEntries: number;
  readonly maxBytes: number;
  private readonly now: () => number;
  private readonly rules = new Map<string, Entry>();
  /** Non-rule entries by name; their order of use is the list from `oldest` to `newest`. */
  private readonly lru = new Map<string, Entry>();
  // A linked list, not the Map's insertion order: evicting the front of a Map walks past every
  // entry deleted since it last rehashed, a cost that grew with each call until the rehash.
  private oldest: Entry | undefined;
  private newest: Entry | undefined;
  private lruBytes = 0;
  // A persistence listener failing must not break the tool call that changed a variable.
  private readonly changed = new Emitter<VariableChange>();

  constructor(options: VariableSystemOptions = {}) {
    this.maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_MAX_VARIABLES);
    this.maxBytes = Math.max(1, options.maxBytes ?? DEFAULT_MAX_VARIABLE_BYTES);
    this.now = options.now ?? Date.now;
  }

  /** Number of variables, rules included. */
  get size(): number {
    return this.rules.size + this.lru.size;
  }

  /** UTF-8 bytes held by evictable (non-rule) values. */
  get bytes(): number {
    return this.lruBytes;
  }

  add(name: string, value: string, type: VariableType, options: AddVariableOptions = {}): Variable {
    const previous = this.rules.get(name) ?? this.lru.get(name);
    const time = this.now();
    const variable: Variable = {
      name,
      type,
      value,
      tags: [...(options.tags ?? previous?.variable.tags ?? [])],
      size: countCodePoints(value),
      createdAt: previous?.variable.createdAt ?? time,
      updatedAt: time,
      accessedAt: time,
    };
    const desc = options.desc ?? previous?.variable.desc;
    if (desc !== undefined) variable.desc = desc;
    if (previous) this.detach(name);
    this.attach(makeEntry(variable));
    this.emit({ kind: previous ? 'update' : 'add', name, type });
    this.enforceBounds(name);
    return { ...variable };
  }

  /** The variable, marked as just used (it moves to the back of the eviction queue). */
  get(name: string): Variable | undefined {
    const rule = this.rules.get(name);
    if (rule) {
      rule.variable.accessedAt = this.now();
      return { ...rule.variable };
    }
    const entry = this.lru.get(name);
    if (!entry) return undefined;
    entry.variable.accessedAt = this.now();
    this.unlink(entry);
    this.linkNewest(entry);
    return { ...entry.variable };
  }

  /** The variable without marking it used. */
  peek(name: string): Variable | undefined {
    const entry = this.rules.get(name) ?? this.lru.get(name);
    return entry ? { ...entry.variable } : undefined;
  }

  /** A slice of the value by code points (see sliceVariable), without marking the variable used. */
  slice(name: string, start?: number, length?: number): VariableSlice | undefined {
    const variable = this.peek(name);
    return variable ? sliceVariable(variable, start, length) : undefined;
  }

  has(name: string): boolean {
    return this.rules.has(name) || this.lru.has(name);
  }

  *names(): IterableIterator<string> {
    yield* this.rules.keys();
    for (const entry of this.lruEntries()) yield entry.variable.name;
  }

  /** Rules first (by name), then the rest most recently used first. */
  list(query: VariableQuery = {}): VariablePage {
    const needle = query.search?.trim().toLowerCase() || undefined;
    const tag = query.tag;
    const type = query.type;
    const matches = (entry: Entry): boolean =>
      (type === undefined || entry.variable.type === type) &&
      (tag === undefined || entry.variable.tags.includes(tag)) &&
      (needle === undefined || (entry.haystack ??= haystackOf(entry.variable)).includes(needle));

    const offset = Math.max(0, Math.trunc(query.offset ?? 0));
    const limit = query.limit === undefined ? Infinity : Math.max(0, Math.trunc(query.limit));
    const page: Entry[] = [];
    let total = 0;
    if (type === undefined || type === 'RULE') {
      const rules = [...this.rules.values()].sort((a, b) => a.variable.name.localeCompare(b.variable.name));
      for (const entry of rules) {
        if (!matches(entry)) continue;
        if (total >= offset && page.length < limit) page.push(entry);
        total++;
      }
    }
    if (type !== 'RULE') {
      // Newest first without copying the whole map: walk oldest → newest keeping only the last
      // `want` matches in a ring, then read that ring backwards.
      const skip = Math.max(0, offset - total);
      const want = skip + (limit - page.length);
      const bounded = Number.isFinite(want);
      const ring: Entry[] = [];
      let matched = 0;
      for (let entry = this.oldest; entry; entry = entry.newer) {
        if (!matches(entry)) continue;
        if (want > 0) ring[bounded ? matched % want : matched] = entry;
        matched++;
      }
      total += matched;
      for (let q = skip; q < Math.min(want, matched); q++) {
        const index = matched - 1 - q;
        page.push(ring[bounded ? index % want : index]!);
      }
    }
    const items = page.map((entry) => toInfo(entry.variable));
    return { items, total, offset };
  }

  search(text: string, query: Omit<VariableQuery, 'search'> = {}): VariablePage {
    return this.list({ ...query, search: text });
  }

  remove(name: string): boolean {
    const entry = this.detach(name);
    if (!entry) return false;
    this.emit({ kind: 'remove', name, type: entry.variable.type });
    return true;
  }

  clear(): void {
    this.rules.clear();
    this.clearLru();
    this.emit({ kind: 'clear' });
  }

  /** Every variable, rules first, then least recently used first (restore keeps that order). */
  serialize(): SerializedVariables {
    const variables = [...this.rules.values(), ...this.lruEntries()].map((e) => ({
      ...e.variable,
      tags: [...e.variable.tags],
    }));
    return { version: 1, variables };
  }

  /** Replaces the contents with `data`; malformed entries are skipped. Returns how many were. */
  restore(data: SerializedVariables | unknown): { restored: number; skipped: number } {
    this.rules.clear();
    this.clearLru();
    const list = isRecord(data) && Array.isArray(data.variables) ? data.variables : [];
    let skipped = 0;
    for (const raw of list) {
      const variable = toVariable(raw);
      if (!variable) {
        skipped++;
        continue;
      }
      this.detach(variable.name);
      this.attach(makeEntry(variable));
    }
    this.enforceBounds();
    this.emit({ kind: 'restore' });
    return { restored: this.size, skipped };
  }

  /** Returns a function that removes the listener. */
  onChange(listener: VariableChangeListener): () => void {
    return this.changed.event(listener);
  }

  private attach(entry: Entry): void {
    if (entry.variable.type === 'RULE') {
      this.rules.set(entry.variable.name, entry);
    } else {
      this.lru.set(entry.variable.name, entry);
      this.linkNewest(entry);
      this.lruBytes += entry.bytes;
    }
  }

  private detach(name: string): Entry | undefined {
    const rule = this.rules.get(name);
    if (rule) {
      this.rules.delete(name);
      return rule;
    }
    const entry = this.lru.get(name);
    if (!entry) return undefined;
    this.lru.delete(name);
    this.unlink(entry);
    this.lruBytes -= entry.bytes;
    return entry;
  }

  /** Evicts least recently used entries, never `keep` (the one just written). */
  private enforceBounds(keep?: string): void {
    let entry = this.oldest;
    while (entry && (this.lru.size > this.maxEntries || this.lruBytes > this.maxBytes)) {
      const next = entry.newer;
      const { name, type } = entry.variable;
      if (name !== keep) {
        this.detach(name);
        this.emit({ kind: 'evict', name, type });
      }
      entry = next;
    }
  }

  /** Non-rule entries, least recently used first. */
  private *lruEntries(): IterableIterator<Entry> {
    for (let entry = this.oldest; entry; entry = entry.newer) yield entry;
  }

  private linkNewest(entry: Entry): void {
    entry.older = this.newest;
    entry.newer = undefined;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  private unlink(entry: Entry): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = entry.newer = undefined;
  }

  private clearLru(): void {
    this.lru.clear();
    this.oldest = this.newest = undefined;
    this.lruBytes = 0;
  }

  private emit(change: VariableChange): void {
    this.changed.fire(change);
  }
}

function makeEntry(variable: Variable): Entry {
  return { variable, bytes: Buffer.byteLength(variable.value, 'utf8'), haystack: undefined, older: undefined, newer: undefined };
}

function haystackOf(variable: Variable): string {
  return [variable.name, variable.desc ?? '', ...variable.tags].join('\n').toLowerCase();
}

function toInfo(variable: Variable): VariableInfo {
  const { value: _value, ...info } = variable;
  return { ...info, tags: [...info.tags] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toVariable(raw: unknown): Variable | undefined {
  if (!isRecord(raw) || typeof raw.name !== 'string' || typeof raw.value !== 'string') return undefined;
  if (!VARIABLE_TYPES.includes(raw.type as VariableType)) return undefined;
  const time = typeof raw.updatedAt === 'number' ? raw.updatedAt : Date.now();
  const variable: Variable = {
    name: raw.name,
    type: raw.type as VariableType,
    value: raw.value,
    tags: Array.isArray(raw.tags) ? raw.tags.filter((t): t is string => typeof t === 'string') : [],
    size: countCodePoints(raw.value),
    createdAt: typeof raw.createdAt === 'number' ? raw.createdAt : time,
    updatedAt: time,
    accessedAt: typeof raw.accessedAt === 'number' ? raw.accessedAt : time,
  };
  if (typeof raw.desc === 'string') variable.desc = raw.desc;
  return variable;
}
