// Open WebUI calls run on the warm Python fork-server under the sandbox, with the results a cold
// start gives; a fresh Tools() per call (state set by one call never reaches the next).
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../shared/settings.ts';
import { discoverTools } from '../../electron/runtime/sources/discovery/discover-tools.ts';
import { createSourceContext, helperPools } from '../../electron/runtime/sources/source-context.ts';
import type { Tool, ToolRunResult } from '../../electron/runtime/tools/types.ts';
import { realPython } from '../support/real-python.ts';
import { repoRoot } from '../support/run-cli.ts';

/** This file's own warm-Python fork-servers (and module hosts): nothing in the runtime is process-wide. */
const pools = helperPools();

const STATEFUL = `"""title: Stateful"""
class Tools:
    calls = []

    def __init__(self):
        self.mine = []

    def remember(self, text: str) -> dict:
        """Remember a text on the instance and on the class."""
        self.mine.append(text)
        Tools.calls.append(text)
        return {"instance": self.mine, "klass": Tools.calls}
`;

describe('Open WebUI tools on the warm runner', () => {
  afterAll(() => pools.warmPython.stop());

  it('are served warm, sandboxed, with the cold results, and a fresh Tools() each call', async () => {
    const root = join(mkdtempSync(join(tmpdir(), 'td-owui-warm-')), 'tools');
    cpSync(join(repoRoot, 'test/fixtures/tools/open-webui-demo'), root, { recursive: true });
    writeFileSync(join(root, 'stateful.py'), STATEFUL);
    const home = mkdtempSync(join(tmpdir(), 'td-owui-home-'));
    const settings = (warm: boolean) => {
      const s = defaultSettings();
      s.pythonPath = realPython();
      s.runner.warmPython = warm;
      s.workingDir = root;
      return s;
    };
    const load = async (warm: boolean) => {
      const found = await discoverTools([root], createSourceContext(settings(warm), home, { pools }));
      return new Map(found.groups.flatMap((g) => g.tools).map((t) => [t.definition.function.name, t]));
    };
    const run = (tool: Tool, args: Record<string, unknown>): Promise<ToolRunResult> =>
      tool.execute(args, { callId: 'c1', sessionId: 's1', signal: AbortSignal.timeout(20_000), onUpdate: () => {} });
    const warm = await load(true);
    const cold = await load(false);
    const before = pools.warmPython.counts();
    const calls: [string, Record<string, unknown>][] = [['greet', { name: 'Ada' }], ['slow_count', { upto: 2 }], ['context', {}], ['convert', { value: 2, unit: 'imperial' }], ['fail', {}]];
    for (const [name, args] of calls) {
      const a = await run(warm.get(name)!, args);
      const b = await run(cold.get(name)!, args);
      expect(a, name).toEqual(b);
    }
    const first = await run(warm.get('remember')!, { text: 'one' });
    const second = await run(warm.get('remember')!, { text: 'two' });
    expect(first.data).toEqual({ instance: ['one'], klass: ['one'] });
    // The module is imported anew for each call: nothing of the first call is left.
    expect(second.data).toEqual({ instance: ['two'], klass: ['two'] });
    const after = pools.warmPython.counts();
    expect(after.warm - before.warm).toBe(calls.length + 2);
  }, 120_000);
});
