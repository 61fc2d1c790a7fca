import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPythonModules } from '../../../electron/runtime/sources/python/index.ts';
import { resolvePythonCommand } from '../../../electron/runtime/sources/process/resolve-python-command.ts';
import type { ToolContext, ToolGroup } from '../../../electron/runtime/tools/types.ts';
import type { ToolUpdate } from '../../../shared/tools.ts';
import { copyFixtures, countingContext, entriesOf, tmp } from '../../support/module-tool-fixtures.ts';
import { waitNoneWithMarker } from '../../support/live-processes.ts';


async function setup(fixture: string, patch = {}) {
  const root = copyFixtures(fixture);
  const ctx = countingContext(tmp(), patch);
  const { groups } = await loadPythonModules(entriesOf(root, 'python'), ctx);
  const updates: ToolUpdate[] = [];
  const call = (name: string, args: Record<string, unknown> = {}, signal = new AbortController().signal) => {
    const t = (groups as ToolGroup[]).flatMap((g) => g.tools).find((x) => x.definition.function.name === name)!;
    const toolCtx: ToolContext = { callId: 'c', sessionId: 's', signal, onUpdate: (u) => updates.push(u) };
    return t.execute(args, toolCtx);
  };
  return { root, ctx, call, updates };
}

describe('Python module tools: running', () => {
  it('returns the result; prints come back as logs and cannot forge the envelope', async () => {
    const { call, updates } = await setup('py-runtime-behaviour');
    const result = await call('noisy', { n: 2 });
    expect(result.status).toBe('SUCCESS');
    expect(result.data).toEqual({ n: 2, text: 'ünïcødé' });
    expect(result.logs).toContain('line 0\nline 1');
    expect(result.logs).toContain('to stderr');
    expect(result.logs).toContain('forged');
    expect(updates.map((u) => u.text).join('')).toContain('line 1');
  });

  it('reports an exception with its traceback', async () => {
    const { call } = await setup('py-runtime-behaviour');
    const result = await call('fails', { message: 'bad input' });
    expect(result.status).toBe('ERROR');
    expect(result.error).toBe('ValueError: bad input');
    expect(result.logs).toContain('Traceback');
    expect((result.data as { traceback: string }).traceback).toContain('raise ValueError(message)');
  });

  it('falls back to str() with a warning for results JSON cannot encode', async () => {
    const result = await (await setup('py-runtime-behaviour')).call('odd_result');
    expect(result.status).toBe('SUCCESS');
    expect(result.data).toBe('{1, 2, 3}');
    expect(result.warnings?.[0]).toMatch(/not JSON-serialisable/);
  });

  it('applies fn.format as formattedText, awaits async tools, and survives sys.exit', async () => {
    const { call } = await setup('py-runtime-behaviour');
    expect(await call('formatted', { name: 'Ada' })).toMatchObject({ status: 'SUCCESS', data: { name: 'Ada' }, formattedText: 'Hello Ada (Ada)' });
    expect(await call('later', { x: 21 })).toMatchObject({ status: 'SUCCESS', data: 42 });
    expect(await call('exits')).toMatchObject({ status: 'ERROR', error: 'SystemExit: 3' });
    expect(await call('noisy', { nope: 1 })).toMatchObject({ status: 'ERROR', error: expect.stringMatching(/TypeError: .*unexpected keyword argument 'nope'/) });
  });

  it('runs in the script folder with a minimal environment plus the settings variables', async () => {
    process.env.TD_LEAK = 'secret-of-the-app';
    try {
      const { call, root } = await setup('py-runtime-behaviour', { env: { TD_EXTRA: 'from-settings' } });
      expect((await call('where')).data).toEqual({ cwd: root, extra: 'from-settings', leak: null });
    } finally {
      delete process.env.TD_LEAK;
    }
  });

  it('imports sibling modules of the script', async () => {
    expect(await (await setup('py-sibling-import')).call('greet', { name: 'Ada' })).toMatchObject({ status: 'SUCCESS', data: 'hello, Ada' });
  });

  it('kills the tool and its grandchild on its own timeout (fn.timeout): nothing is left behind', async () => {
    const { call } = await setup('py-runtime-behaviour');
    const pidfile = join(tmp(), 'grandchild.pid');
    const started = Date.now();
    const result = await call('spawn_and_sleep', { pidfile });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.status).toBe('ERROR');
    expect(result.error).toMatch(/Timed out/);
    // It did start (it wrote its pid); its pid is the call's namespace's, so it is found by its
    // command line, which carries the pidfile's path.
    expect(Number(readFileSync(pidfile, 'utf8'))).toBeGreaterThan(0);
    expect(await waitNoneWithMarker(pidfile, 1500)).toEqual([]);
  });

  it('stops on abort', async () => {
    const { call } = await setup('py-runtime-behaviour');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await call('spawn_and_sleep', { pidfile: join(tmp(), 'p') }, controller.signal);
    expect(result).toMatchObject({ status: 'ERROR', error: 'Aborted' });
  });

  it('resolves the interpreter once and reuses it', async () => {
    const { call, ctx } = await setup('py-sibling-import');
    await call('greet');
    await call('greet');
    const resolved = await resolvePythonCommand(null, ctx.runner);
    // The real interpreter behind the `python3` on PATH (here a pyenv shim), asked once per process.
    expect(resolved).toMatch(/python/);
    expect(resolved).not.toMatch(/\/shims\//);
    const calls = ctx.spawned.filter((s) => s.args.some((a) => a.endsWith('run_tool.py')));
    expect(calls).toHaveLength(2);
    expect(calls.every((s) => s.command === resolved)).toBe(true);
    expect(ctx.spawned.filter((s) => s.args.includes('import sys; print(sys.executable)'))).toHaveLength(0);
  });
});
