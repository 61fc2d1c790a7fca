import { describe, expect, it } from 'vitest';
import type { VariableChange } from '../../../../shared/variables.ts';
import { VariableSystem } from '../../../../electron/runtime/tools/variables/variable-system.ts';

function clock(): () => number {
  let t = 1000;
  return () => t++;
}

describe('VariableSystem', () => {
  it('adds, gets, updates and removes variables with tags and descriptions', () => {
    const vars = new VariableSystem({ now: clock() });
    const added = vars.add('note', 'hello 😀', 'LLMAdd', { tags: ['a'], desc: 'greeting' });
    expect(added).toMatchObject({ name: 'note', type: 'LLMAdd', value: 'hello 😀', size: 7, tags: ['a'], desc: 'greeting' });
    const updated = vars.add('note', 'bye', 'LLMAdd');
    expect(updated.createdAt).toBe(added.createdAt);
    expect(updated.updatedAt).toBeGreaterThan(added.updatedAt);
    expect(updated.tags).toEqual(['a']);
    expect(vars.get('note')?.value).toBe('bye');
    expect(vars.remove('note')).toBe(true);
    expect(vars.remove('note')).toBe(false);
    expect(vars.get('note')).toBeUndefined();
  });

  it('returns copies, so callers cannot change stored values', () => {
    const vars = new VariableSystem();
    vars.add('x', 'v', 'USER_ADD', { tags: ['t'] });
    const got = vars.get('x')!;
    got.value = 'changed';
    expect(vars.peek('x')?.value).toBe('v');
  });

  it('evicts least recently used entries beyond the entry bound, and get() counts as use', () => {
    const vars = new VariableSystem({ maxEntries: 3, now: clock() });
    const evicted: string[] = [];
    vars.onChange((c) => c.kind === 'evict' && evicted.push(c.name!));
    vars.add('a', '1', 'ToolCallResult');
    vars.add('b', '2', 'ToolCallResult');
    vars.add('c', '3', 'ToolCallResult');
    vars.get('a');
    vars.add('d', '4', 'ToolCallResult');
    expect(evicted).toEqual(['b']);
    vars.add('e', '5', 'ToolCallResult');
    expect(evicted).toEqual(['b', 'c']);
    expect([...vars.names()].sort()).toEqual(['a', 'd', 'e']);
  });

  it('keeps the order of use through long churn of adds, updates, gets, removes and evictions', () => {
    // A model of the eviction order (least recently used first) run beside the store.
    const vars = new VariableSystem({ maxEntries: 7, now: clock() });
    const model: string[] = [];
    const evicted: string[] = [];
    const modelEvicted: string[] = [];
    vars.onChange((c) => c.kind === 'evict' && evicted.push(c.name!));
    const use = (name: string) => {
      const at = model.indexOf(name);
      if (at >= 0) model.splice(at, 1);
      model.push(name);
    };
    for (let i = 0; i < 500; i++) {
      const name = `v${(i * 7919) % 13}`;
      if (i % 5 === 0) {
        if (vars.get(name)) use(name);
      } else if (i % 11 === 0) {
        vars.remove(name);
        if (model.includes(name)) model.splice(model.indexOf(name), 1);
      } else {
        vars.add(name, String(i), 'ToolCallResult');
        use(name);
        while (model.length > 7) modelEvicted.push(model.shift()!);
      }
      expect([...vars.names()]).toEqual(model);
    }
    expect(evicted).toEqual(modelEvicted);
    expect(vars.list().items.map((v) => v.name)).toEqual([...model].reverse());
    expect(vars.serialize().variables.map((v) => v.name)).toEqual(model);
  });

  it('never evicts RULE entries and does not count them against the bound', () => {
    const vars = new VariableSystem({ maxEntries: 2, maxBytes: 10 });
    vars.add('Rule/g/r', 'x'.repeat(100), 'RULE');
    for (let i = 0; i < 10; i++) vars.add(`v${i}`, 'abc', 'LLMAdd');
    expect(vars.peek('Rule/g/r')?.value).toHaveLength(100);
    expect(vars.list({ type: 'LLMAdd' }).items.map((v) => v.name)).toEqual(['v9', 'v8']);
  });

  it('evicts beyond the byte bound (UTF-8 bytes) but keeps the entry just written', () => {
    const vars = new VariableSystem({ maxBytes: 10 });
    vars.add('a', '12345', 'ToolCallResult');
    vars.add('b', '😀', 'ToolCallResult'); // 4 bytes → 9
    expect(vars.has('a')).toBe(true);
    vars.add('c', '12', 'ToolCallResult'); // 11 → evict a
    expect(vars.has('a')).toBe(false);
    expect(vars.bytes).toBe(6);
    vars.add('big', 'x'.repeat(50), 'ToolCallResult');
    expect([...vars.names()]).toEqual(['big']);
  });

  it('lists rules first, then most recently used first, with filters and paging', () => {
    const vars = new VariableSystem({ now: clock() });
    vars.add('Rule/g/b', 'rb', 'RULE');
    vars.add('Rule/g/a', 'ra', 'RULE');
    vars.add('x1', '1', 'ToolCallResult', { tags: ['web'] });
    vars.add('x2', '2', 'ToolCallArgs', { desc: 'Search arguments' });
    vars.add('x3', '3', 'LLMAdd', { tags: ['web'] });
    expect(vars.list().items.map((v) => v.name)).toEqual(['Rule/g/a', 'Rule/g/b', 'x3', 'x2', 'x1']);
    expect(vars.list({ tag: 'web' }).items.map((v) => v.name)).toEqual(['x3', 'x1']);
    expect(vars.list({ type: 'RULE' }).total).toBe(2);
    expect(vars.search('SEARCH').items.map((v) => v.name)).toEqual(['x2']);
    const page = vars.list({ offset: 1, limit: 2 });
    expect(page).toMatchObject({ total: 5, offset: 1 });
    expect(page.items.map((v) => v.name)).toEqual(['Rule/g/b', 'x3']);
    expect('value' in page.items[0]!).toBe(false);
  });

  it('serializes and restores, keeping LRU order and skipping malformed entries', () => {
    const vars = new VariableSystem({ maxEntries: 3, now: clock() });
    vars.add('Rule/g/r', 'rule', 'RULE', { desc: 'd' });
    vars.add('a', '1', 'LLMAdd');
    vars.add('b', '2', 'LLMAdd');
    vars.get('a');
    const data = JSON.parse(JSON.stringify(vars.serialize()));
    data.variables.push({ name: 'bad', value: 3, type: 'LLMAdd' }, { name: 'bad2', value: 'x', type: 'NOPE' });

    const copy = new VariableSystem({ maxEntries: 3 });
    const changes: VariableChange[] = [];
    copy.onChange((c) => changes.push(c));
    expect(copy.restore(data)).toEqual({ restored: 3, skipped: 2 });
    expect(changes).toEqual([{ kind: 'restore' }]);
    expect(copy.peek('Rule/g/r')).toMatchObject({ type: 'RULE', desc: 'd' });
    copy.add('c', '3', 'LLMAdd');
    copy.add('d', '4', 'LLMAdd');
    expect(copy.has('b')).toBe(false);
    expect(copy.has('a')).toBe(true);
  });

  it('reports every change to listeners, ignores a listener that throws, and disposes', () => {
    const vars = new VariableSystem();
    const seen: string[] = [];
    vars.onChange(() => {
      throw new Error('boom');
    });
    const dispose = vars.onChange((c) => seen.push(`${c.kind}:${c.name ?? ''}`));
    vars.add('a', '1', 'LLMAdd');
    vars.add('a', '2', 'LLMAdd');
    vars.remove('a');
    vars.clear();
    dispose();
    vars.add('b', '1', 'LLMAdd');
    expect(seen).toEqual(['add:a', 'update:a', 'remove:a', 'clear:']);
  });

  it('searches 100 000 variables quickly', () => {
    const vars = new VariableSystem({ maxEntries: 200_000 });
    for (let i = 0; i < 100_000; i++) vars.add(`Search_call_${i}_result`, 'v', 'ToolCallResult', { tags: ['web'] });
    const started = performance.now();
    const page = vars.search('call_4242', { limit: 50 });
    const ms = performance.now() - started;
    expect(page.total).toBe(11); // 4242 and 42420..42429
    expect(ms).toBeLessThan(500);
  });
});

describe('VariableSystem paging', () => {
  it('pages through rules and the rest consistently for every offset and limit', () => {
    const vars = new VariableSystem({ maxEntries: 100 });
    vars.add('Rule/g/b', 'x', 'RULE');
    vars.add('Rule/g/a', 'x', 'RULE');
    for (let i = 0; i < 7; i++) vars.add(`v${i}`, 'x', 'LLMAdd', { tags: i % 2 ? ['odd'] : [] });
    const all = vars.list().items.map((v) => v.name);
    expect(all).toEqual(['Rule/g/a', 'Rule/g/b', 'v6', 'v5', 'v4', 'v3', 'v2', 'v1', 'v0']);
    for (let offset = 0; offset <= 10; offset++) {
      for (let limit = 0; limit <= 10; limit++) {
        const page = vars.list({ offset, limit });
        expect(page.total).toBe(9);
        expect(page.items.map((v) => v.name)).toEqual(all.slice(offset, offset + limit));
      }
    }
    expect(vars.list({ tag: 'odd', offset: 1, limit: 1 }).items.map((v) => v.name)).toEqual(['v3']);
  });

  it('slices values by code point without marking them used (the Variables panel)', () => {
    const vars = new VariableSystem({ now: clock(), maxEntries: 2 });
    vars.add('a', 'x😀yz', 'ToolCallResult');
    vars.add('b', 'b', 'ToolCallResult');
    expect(vars.slice('a', 1, 2)).toMatchObject({ value: '😀y', start: 1, total: 4, variable: { name: 'a' } });
    expect(vars.slice('a', 1, 2)!.variable).not.toHaveProperty('value');
    expect(vars.slice('a', 9)).toMatchObject({ value: '', start: 4, total: 4 });
    expect(vars.slice('a')!.value).toBe('x😀yz');
    expect(vars.slice('missing')).toBeUndefined();
    // Looking did not refresh "a": it is still the least recently used one and goes first.
    vars.add('c', 'c', 'ToolCallResult');
    expect(vars.has('a')).toBe(false);
  });
});
