// One measurement of module-tools.bench.ts, in a fresh process so each figure starts from the
// same state (no JIT warmed by another figure). argv: in|host, root, home. Prints one JSON line:
// the milliseconds of three loads of every module in `root` (first, then two reloads), then of
// the sandbox probe. The probe runs once per app start in both designs (the app's sandbox status
// asks for it before the first screen), so both start timing after it; its cost is printed apart.
import { mkdirSync, readdirSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSettings } from '../../shared/settings.ts';
import { detectSandbox } from '../../electron/runtime/runner/sandbox-detect.ts';
import { classifyEntry } from '../../electron/runtime/sources/discovery/classify-entry.ts';
import { loadModuleFactories } from '../../electron/runtime/sources/module/index.ts';
import { loadModuleEntry } from '../../electron/runtime/sources/module/host/load-entry.ts';
import { cachedTransform } from '../../electron/runtime/sources/module/host/transform-cache.ts';
import { ensureShimBridges } from '../../electron/runtime/sources/module/shim/shim-bridges.ts';
import { fastModuleTransform } from '../../electron/runtime/sources/module/transform.ts';
import { createSourceContext } from '../../electron/runtime/sources/source-context.ts';
import type { SourceEntry } from '../../electron/runtime/sources/types.ts';

const [mode, root, home] = process.argv.slice(2) as ['in' | 'host', string, string];
const entries = readdirSync(root).sort().map((name) => classifyEntry(root, join(root, name), false)).filter((e): e is SourceEntry => e !== null);

/**
 * Today's design before the tool host (git main up to this change): the same loading code — jiti,
 * the esbuild transform with an on-disk cache, the factory, the adapter — run inside this process.
 */
async function loadInProcess(): Promise<number> {
  const cacheDir = join(home, 'cache', 'in-process');
  mkdirSync(cacheDir, { recursive: true });
  const transform = cachedTransform(fastModuleTransform()!, cacheDir, (key, code) => {
    const temp = join(cacheDir, `${key}.tmp`);
    writeFileSync(temp, code);
    renameSync(temp, join(cacheDir, `${key}.cjs`));
  });
  const options = {
    env: { workingDir: home, exec: async () => ({ stdout: '', stderr: 'no exec in the benchmark', code: 127, killed: false, warnings: [] }) },
    bridges: ensureShimBridges(join(home, 'cache', 'module-shim')),
    transform,
    scratchDir: join(home, 'cache', 'jiti'),
    factoryTimeoutMs: 10_000,
  };
  let tools = 0;
  for (const entry of entries) tools += (await loadModuleEntry(entry, options)).tools.length;
  return tools;
}

const settings = defaultSettings();
if (process.env.BENCH_SANDBOX) settings.sandbox.mode = process.env.BENCH_SANDBOX as 'off';
const ctx = createSourceContext(settings, home);
async function loadInHost(): Promise<number> {
  const { groups } = await loadModuleFactories(entries, ctx);
  return groups.reduce((n, g) => n + g.tools.length, 0);
}

const probeStarted = performance.now();
detectSandbox();
const probeMs = performance.now() - probeStarted;

const times: number[] = [];
for (let i = 0; i < 3; i++) {
  const started = performance.now();
  const tools = mode === 'in' ? await loadInProcess() : await loadInHost();
  times.push(performance.now() - started);
  if (tools !== entries.length) throw new Error(`expected ${entries.length} tools, loaded ${tools}`);
}
process.stdout.write(`${JSON.stringify([...times, probeMs])}\n`);
