// Warm and cold Python give the same results: every Python tool of the fixture set and the
// shipped examples (module functions, script.py, three-layer execution.py) is called through a
// source context with the warm fork-server and through one without, sandboxed, and the tool
// results must be equal.
import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '../../shared/settings.ts';
import type { JsonSchema } from '../../shared/tools.ts';
import { resourcesDir } from '../../electron/runtime/sources/process/helper-scripts.ts';
import { discoverTools } from '../../electron/runtime/sources/discovery/discover-tools.ts';
import { createSourceContext, helperPools } from '../../electron/runtime/sources/source-context.ts';
import type { Tool } from '../../electron/runtime/tools/types.ts';
import type { ToolRunResult } from '../../electron/runtime/tools/types.ts';
import { TOOL_FIXTURES } from '../support/fixture-entries.ts';
import { realPython } from '../support/real-python.ts';

/** This file's own warm-Python fork-servers (and module hosts): nothing in the runtime is process-wide. */
const pools = helperPools();

const isPython = (tool: Tool) =>
  tool.source?.format === 'python' || tool.source?.format === 'three-layer' || (tool.source?.format === 'script' && tool.meta?.language === 'python');

/** Arguments a tool accepts: its required parameters with a value of their type (or first enum value). */
function sampleArgs(schema: JsonSchema | undefined): Record<string, unknown> {
  const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const args: Record<string, unknown> = {};
  for (const name of (schema?.required as string[] | undefined) ?? []) {
    const p = props[name] ?? {};
    const type = Array.isArray(p.type) ? p.type[0] : p.type;
    args[name] = Array.isArray(p.enum) ? p.enum[0] : type === 'integer' ? 3 : type === 'number' ? 2.5 : type === 'boolean' ? true : type === 'array' ? [] : type === 'object' ? {} : 'abc';
  }
  return args;
}

/** What a user sees of a result; the run's duration aside. */
function comparable(result: ToolRunResult): unknown {
  const { durationMs: _d, ...rest } = result as ToolRunResult & { durationMs?: number };
  return rest;
}

function settingsWith(warm: boolean, mode: Settings['sandbox']['mode']): Settings {
  const settings = defaultSettings();
  settings.pythonPath = realPython();
  settings.sandbox.mode = mode;
  settings.workingDir = mkdtempSync(join(tmpdir(), 'td-wd-'));
  settings.runner.warmPython = warm;
  return settings;
}

const cases = [
  ...readdirSync(TOOL_FIXTURES).map((name) => ({ name, dir: join(TOOL_FIXTURES, name) })),
  { name: 'examples', dir: join(resourcesDir(), 'examples') },
];

describe.skipIf(!realPython() || process.platform !== 'linux')('warm Python gives the cold results', () => {
  afterAll(() => pools.warmPython.stop());

  /** Unsandboxed too, on the cases that run code (the rest differ only in how they load). */
  const unsandboxed = new Set(['examples', 'script-behaviour', 'py-runtime-behaviour', 'three-layer-runtime', 'three-layer-seed', 'py-sibling-import']);

  it.each([
    { mode: 'auto' as const, only: undefined },
    { mode: 'off' as const, only: unsandboxed },
  ])('for every Python tool of the fixtures and the examples (sandbox $mode)', async ({ mode, only }) => {
    const warmSettings = settingsWith(true, mode);
    const coldSettings = { ...settingsWith(false, mode), workingDir: warmSettings.workingDir };
    const home = mkdtempSync(join(tmpdir(), 'td-home-'));
    let compared = 0;
    const before = pools.warmPython.counts();
    const notRun: string[] = [];
    const kinds = new Set<string>();
    for (const c of cases.filter((c) => !only || only.has(c.name))) {
      const root = join(mkdtempSync(join(tmpdir(), 'td-eq-')), c.name);
      cpSync(c.dir, root, { recursive: true });
      const cold = await discoverTools([root], createSourceContext(coldSettings, home, { pools }));
      const warm = await discoverTools([root], createSourceContext(warmSettings, home, { pools }));
      const warmTools = new Map(warm.groups.flatMap((g) => g.tools).map((t) => [t.definition.function.name, t]));
      for (const tool of cold.groups.flatMap((g) => g.tools).filter(isPython)) {
        const name = tool.definition.function.name;
        const twin = warmTools.get(name);
        expect(twin, `${c.name}/${name} loads warm too`).toBeDefined();
        const args = sampleArgs(tool.definition.function.parameters as JsonSchema);
        // A bound on slow fixtures (loops, sleeps): both ways end as aborted alike.
        const run = (t: Tool) => t.execute(args, { callId: 'c', sessionId: 's', signal: AbortSignal.timeout(3000), onUpdate: () => {} });
        const coldResult = await run(tool);
        const was = pools.warmPython.counts();
        const warmResult = await run(twin!);
        const now = pools.warmPython.counts();
        if (now.warm === was.warm) notRun.push(`${c.name}/${name}: ${now.cold > was.cold ? 'ran cold' : 'started no process'}`);
        expect(comparable(warmResult), `${c.name}/${name}`).toEqual(comparable(coldResult));
        kinds.add(`${tool.source?.format}`);
        compared++;
      }
    }
    console.log(`compared ${compared} Python tools warm vs cold (${[...kinds].join(', ')}); zygotes alive: ${(await pools.warmPython.zygotes()).length}`);
    expect(compared).toBeGreaterThan(only ? 10 : 30);
    expect([...kinds].sort()).toEqual(['python', 'script', 'three-layer']);
    // The warm runs really were warm: every one served by a zygote, none fell back to a cold start.
    const after = pools.warmPython.counts();
    console.log(notRun.join('\n'));
    expect(after.warm - before.warm).toBe(compared - notRun.length);
    expect(after.cold - before.cold).toBe(0);
  }, 300_000);
});
