// Discovery of 1000 mixed tools (three-layer, script folders, TS modules, Python modules) cold
// and warm, and how long a one-file edit takes to show up (direct reload and through the watcher).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSettings } from '../../shared/settings.ts';
import { discoverTools } from '../../electron/runtime/sources/discovery/discover-tools.ts';
import { createSourceContext } from '../../electron/runtime/sources/source-context.ts';
import { ToolRegistry } from '../../electron/runtime/sources/discovery/tool-registry.ts';
import { percentile, report } from './report.ts';

const THREE_LAYER = 300;
const SCRIPTS = 300;
const MODULES = 200;
const PYTHON_MODULES = 40;
const PYTHON_FUNCTIONS = 5;
const EDITS = 10;

function threeLayer(root: string, i: number, description = `tool ${i}`): void {
  const dir = join(root, `tl_${i}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'definition.json'), JSON.stringify({ id: `tl_${i}`, description, parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, category: `cat_${i % 10}` }));
  writeFileSync(join(dir, 'execution.py'), "text = '{text}'\nd = {{'n': len(text)}}\nprint(d)\n");
  writeFileSync(join(dir, 'return.json'), '{"truncate": 200, "template": "[{tool_id}] {output}"}');
}

/** One root per format, so the cold figure can be split by format. */
function generate(roots: Record<'threeLayer' | 'script' | 'module' | 'python', string>): number {
  for (const dir of Object.values(roots)) mkdirSync(dir);
  for (let i = 0; i < THREE_LAYER; i++) threeLayer(roots.threeLayer, i);
  for (let i = 0; i < SCRIPTS; i++) {
    const dir = join(roots.script, `sc_${i}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'tool.json'), JSON.stringify({ name: `sc_${i}`, description: `script ${i}`, parameters: { type: 'object', properties: { q: { type: 'string' } } } }));
    writeFileSync(join(dir, i % 2 ? 'script.js' : 'script.py'), i % 2 ? 'process.stdout.write("{}")' : 'print("{}")');
  }
  for (let i = 0; i < MODULES; i++) {
    writeFileSync(
      join(roots.module, `mod_${i}.ts`),
      `import { Type } from "@sinclair/typebox";\nexport default () => ({ name: "mod_${i}", description: "module ${i}", parameters: Type.Object({ n: Type.Number() }), async execute(_id: string, p: { n: number }) { return { content: [{ type: "text", text: String(p.n * ${i}) }] }; } });\n`,
    );
  }
  for (let m = 0; m < PYTHON_MODULES; m++) {
    const lines = [`"""Generated module ${m}."""`, ''];
    for (let f = 0; f < PYTHON_FUNCTIONS; f++) lines.push(`def py_${m}_${f}(city: str, days: int = 3) -> dict:`, `    """Tool ${f} of module ${m}."""`, '    return {"city": city}', '');
    writeFileSync(join(roots.python, `pymod_${m}.py`), lines.join('\n'));
  }
  return THREE_LAYER + SCRIPTS + MODULES + PYTHON_MODULES * PYTHON_FUNCTIONS;
}

function freshRoots() {
  const home = mkdtempSync(join(tmpdir(), 'td-bench-'));
  const roots = { threeLayer: join(home, 'three-layer'), script: join(home, 'script'), module: join(home, 'module'), python: join(home, 'python') };
  return { home, roots, expected: generate(roots) };
}

/** Warm discovery (caches fresh) of the mixed tools, median of 3 after one cold load: the startup bench's row. */
export async function warmDiscovery(): Promise<{ ms: number; cpuMs: number; tools: number }> {
  const { home, roots, expected } = freshRoots();
  const ctx = createSourceContext(defaultSettings(), home);
  await discoverTools(Object.values(roots), ctx);
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    await discoverTools(Object.values(roots), ctx);
    times.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpuTimes.push((used.user + used.system) / 1000);
  }
  const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
  return { ms: median(times), cpuMs: median(cpuTimes), tools: expected };
}

export async function run(): Promise<void> {
  const { home, roots, expected } = freshRoots();
  const all = Object.values(roots);
  const ctx = createSourceContext(defaultSettings(), home);
  const count = (groups: { tools: unknown[] }[]) => groups.reduce((n, g) => n + g.tools.length, 0);

  let coldMs = 0;
  let loaded = 0;
  const parts: string[] = [];
  for (const [format, root] of Object.entries(roots)) {
    const started = performance.now();
    const cold = await discoverTools([root], ctx);
    const ms = performance.now() - started;
    coldMs += ms;
    loaded += count(cold.groups);
    parts.push(`${format} ${ms.toFixed(0)}`);
    if (cold.diagnostics.some((d) => d.severity === 'error')) throw new Error(cold.diagnostics[0]!.message);
  }
  if (loaded !== expected) throw new Error(`expected ${expected} tools, loaded ${loaded}`);
  report(coldMs, 'ms', `discovery, ${expected} mixed tools, cold: Python parsed, TS transpiled (ms: ${parts.join(', ')})`);
  const root = roots.threeLayer;
  let started: number;

  const warm: number[] = [];
  for (let i = 0; i < 3; i++) {
    started = performance.now();
    await discoverTools(all, ctx);
    warm.push(performance.now() - started);
  }
  warm.sort((a, b) => a - b);
  const warmParts: string[] = [];
  for (const [format, dir] of Object.entries(roots)) {
    const t = performance.now();
    await discoverTools([dir], ctx);
    warmParts.push(`${format} ${(performance.now() - t).toFixed(0)}`);
  }
  report(warm[1]!, 'ms', `discovery, ${expected} mixed tools, warm (caches fresh), median of 3 (ms: ${warmParts.join(', ')})`);

  const registry = new ToolRegistry({ roots: all, context: () => ctx, debounceMs: 50 });
  await registry.load();
  const direct: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    threeLayer(root, 7, `edited ${i}`);
    started = performance.now();
    await registry.reloadPaths([join(root, 'tl_7', 'definition.json')]);
    direct.push(performance.now() - started);
  }
  direct.sort((a, b) => a - b);
  report(percentile(direct, 50), 'ms', 'reload after one file edit (re-parse that entry + reassemble), median');

  registry.watch();
  const watched: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    const seen = new Promise<void>((resolve) => {
      const dispose = registry.onChanged(() => {
        dispose();
        resolve();
      });
    });
    started = performance.now();
    writeFileSync(join(roots.module, 'mod_3.ts'), `export default () => ({ name: "mod_3", description: "edit ${i}", execute: async () => ({ content: [] }) });\n`);
    await seen;
    watched.push(performance.now() - started);
  }
  registry.close();
  watched.sort((a, b) => a - b);
  report(percentile(watched, 50), 'ms', 'file edit → tools.changed through the watcher (50 ms debounce included), median');
}
