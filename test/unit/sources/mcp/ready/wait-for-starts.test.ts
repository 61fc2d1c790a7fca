import { describe, expect, it } from 'vitest';
import type { McpServerStateInfo } from '../../../../../electron/runtime/sources/mcp/types.ts';
import { notReadyText, waitForStarts, type StartWatch } from '../../../../../electron/runtime/sources/mcp/ready/wait-for-starts.ts';
import { owningServers } from '../../../../../electron/runtime/sources/mcp/ready/owning-servers.ts';

/** Servers whose states the test sets; set() announces a change as the manager does. */
function watch(initial: Record<string, Partial<McpServerStateInfo>>) {
  const states = new Map(Object.entries(initial).map(([name, s]) => [name, { name, status: 'ready', transport: 'stdio', tools: 0, appOnlyTools: 0, offered: [], restarts: 0, ...s } as McpServerStateInfo]));
  const listeners = new Set<() => void>();
  const w: StartWatch & { set(name: string, s: Partial<McpServerStateInfo>): void; listeners: number } = {
    active: () => [...states.values()].map((s) => ({ state: () => s })),
    onChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(name, s) {
      states.set(name, { ...states.get(name)!, ...s });
      queueMicrotask(() => listeners.forEach((l) => l()));
    },
    get listeners() {
      return listeners.size;
    },
  };
  return w;
}
const starting = (timeoutMs: number) => ({ status: 'starting' as const, startTimeline: { since: Date.now(), steps: [], timeoutMs } });

describe('waitForStarts', () => {
  it('resolves at once when nothing is starting, naming a failed server', async () => {
    const w = watch({ a: {}, b: { status: 'failed', detail: 'could not start: exit code 1\nstderr…' } });
    const notReady = await waitForStarts(w);
    expect(notReady).toEqual([{ name: 'b', status: 'failed', detail: 'could not start: exit code 1\nstderr…' }]);
    expect(notReadyText(notReady)).toBe('b (could not start: exit code 1)');
    expect(w.listeners).toBe(0);
  });

  it('waits for a start in flight to end, ready or failed', async () => {
    const w = watch({ a: starting(10_000), b: starting(10_000) });
    const done = waitForStarts(w);
    setTimeout(() => w.set('a', { status: 'ready' }), 20);
    setTimeout(() => w.set('b', { status: 'failed', detail: 'could not start: did not answer initialize within 10 s' }), 40);
    expect(await done).toEqual([{ name: 'b', status: 'failed', detail: 'could not start: did not answer initialize within 10 s' }]);
  });

  it('gives up on a server at its own bound plus the grace, though no change comes', async () => {
    const w = watch({ stuck: starting(100), quick: {} });
    const began = Date.now();
    const notReady = await waitForStarts(w, { graceMs: 50 });
    expect(Date.now() - began).toBeGreaterThanOrEqual(140);
    expect(Date.now() - began).toBeLessThan(2000);
    expect(notReady).toEqual([{ name: 'stuck', status: 'starting' }]);
    expect(notReadyText(notReady)).toBe('stuck (still starting; its tools are announced when it is ready)');
  });

  it('waits only for the servers named (mcp serve --group)', async () => {
    const w = watch({ other: starting(60_000), mine: {} });
    expect(await waitForStarts(w, { names: ['mine'] })).toEqual([]);
  });
});

describe('owningServers', () => {
  it('finds the server a callable name starts with, cleaned as tool names are, and none for a file tool', () => {
    const servers = ['ev', 'my.server', 'evil'];
    expect(owningServers(servers, 'ev__get-sum')).toEqual(['ev']);
    expect(owningServers(servers, 'my_server__read')).toEqual(['my.server']);
    expect(owningServers(servers, 'word_count')).toEqual([]);
    expect(owningServers(servers, 'ev__')).toEqual([]);
  });
});
