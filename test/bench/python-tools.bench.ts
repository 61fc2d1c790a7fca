// Python module tools: cold parse with one interpreter vs one per module, warm load from the
// `.tool.json` caches (processes spawned must be 0), and the per-call overhead of a tool.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSettings } from '../../shared/settings.ts';
import { createRunner } from '../../electron/runtime/runner/create-runner.ts';
import type { RunSpec } from '../../electron/runtime/runner/types.ts';
import { parsePythonModules } from '../../electron/runtime/sources/python/parse.ts';
import { loadPythonModules } from '../../electron/runtime/sources/python/index.ts';
import { resolvePythonCommand } from '../../electron/runtime/sources/process/resolve-python-command.ts';
import { createSourceContext } from '../../electron/runtime/sources/source-context.ts';
import type { SourceEntry } from '../../electron/runtime/sources/types.ts';
import { percentile, report } from './report.ts';

const MODULES = 200;
const FUNCTIONS = 20;
const CALLS = 15;

function moduleSource(m: number): string {
  const lines = [`"""Generated module ${m}."""`, 'from typing import Literal, Optional', ''];
  for (let f = 0; f < FUNCTIONS; f++) {
    lines.push(
      `def tool_${m}_${f}(city: str, days: int = 3, unit: Literal["c", "f"] = "c", note: Optional[str] = None) -> dict:`,
      `    """Tool ${f} of module ${m}.`,
      '',
      '    Args:',
      '        city: City name',
      '        days: Number of days',
      '        unit: Unit',
      '        note: A note',
      '    """',
      '    return {"city": city, "days": days}',
      '',
    );
  }
  return lines.join('\n');
}

function context(spawned: RunSpec[]) {
  const settings = defaultSettings();
  settings.sandbox.mode = 'off';
  // Cold interpreter starts: warm-python.bench.ts measures the fork-server.
  settings.runner.warmPython = false;
  const home = mkdtempSync(join(tmpdir(), 'td-bench-home-'));
  return createSourceContext(settings, home, { runnerOptions: { onSpawn: (spec) => spawned.push(spec) } });
}

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

function writeModules(): SourceEntry[] {
  const root = mkdtempSync(join(tmpdir(), 'td-bench-py-'));
  mkdirSync(root, { recursive: true });
  const entries: SourceEntry[] = [];
  for (let m = 0; m < MODULES; m++) {
    const path = join(root, `mod_${String(m).padStart(3, '0')}.py`);
    writeFileSync(path, moduleSource(m));
    entries.push({ root, path, format: 'python' });
  }
  return entries;
}

/** Five warm loads from the caches: the median, the processes they spawned (must be 0), the tools. */
async function timeWarmLoads(entries: SourceEntry[]): Promise<{ ms: number; cpuMs: number; spawned: number; tools: number }> {
  const warmTimes: number[] = [];
  const cpuTimes: number[] = [];
  let spawned = 0;
  let tools = 0;
  for (let i = 0; i < 5; i++) {
    const seen: RunSpec[] = [];
    const started = performance.now();
    const cpu = process.cpuUsage();
    const warm = await loadPythonModules(entries, context(seen));
    warmTimes.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpuTimes.push((used.user + used.system) / 1000);
    spawned += seen.length;
    tools = warm.groups.reduce((n, g) => n + g.tools.length, 0);
  }
  return { ms: median(warmTimes), cpuMs: median(cpuTimes), spawned, tools };
}

/** The startup bench's row: modules written, loaded cold once (caches written), then timed warm. */
export async function warmPythonLoad(): Promise<{ ms: number; cpuMs: number; spawned: number; tools: number }> {
  const entries = writeModules();
  await loadPythonModules(entries, context([]));
  return timeWarmLoads(entries);
}

export async function run(): Promise<void> {
  const entries = writeModules();
  const paths = entries.map((e) => e.path);
  const ctx = context([]);
  await resolvePythonCommand(ctx.pythonPath, ctx.runner); // resolved once, outside the timings

  let started = performance.now();
  const batch = await parsePythonModules(paths, ctx);
  const oneInterpreter = performance.now() - started;
  if (!batch.ok) throw new Error(batch.diagnostic.message);
  started = performance.now();
  for (const path of paths) await parsePythonModules([path], ctx);
  const perModule = performance.now() - started;
  report(oneInterpreter, 'ms', `cold parse, ${MODULES} modules × ${FUNCTIONS} functions, ONE interpreter`);
  report(perModule, 'ms', `cold parse, one interpreter per module (${MODULES} processes)`);
  report(perModule / oneInterpreter, '×', 'one interpreter per module vs one for all (slowdown)');

  const coldSpawned: RunSpec[] = [];
  started = performance.now();
  const cold = await loadPythonModules(entries, context(coldSpawned));
  report(performance.now() - started, 'ms', `cold load incl. writing caches (${cold.groups.reduce((n, g) => n + g.tools.length, 0)} tools, ${coldSpawned.length} process(es))`);

  const warm = await timeWarmLoads(entries);
  report(warm.ms, 'ms', `warm load of ${warm.tools} cached tools (median of 5; ${warm.cpuMs.toFixed(0)} ms of CPU)`);
  report(warm.spawned, 'processes', 'spawned by the 5 warm loads (must be 0)');

  // Per-call overhead: a trivial tool through run_tool.py vs a bare interpreter start.
  const callRoot = mkdtempSync(join(tmpdir(), 'td-bench-call-'));
  writeFileSync(join(callRoot, 'trivial.py'), 'def noop() -> int:\n    """Does nothing."""\n    return 1\n');
  const callCtx = context([]);
  const loaded = await loadPythonModules([{ root: callRoot, path: join(callRoot, 'trivial.py'), format: 'python' }], callCtx);
  const noop = loaded.groups[0]!.tools[0]!;
  const python = await resolvePythonCommand(callCtx.pythonPath, callCtx.runner);
  const runner = createRunner();
  const toolTimes: number[] = [];
  const bareTimes: number[] = [];
  const shimTimes: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    started = performance.now();
    const result = await noop.execute({}, { callId: 'b', sessionId: 'b', signal: new AbortController().signal, onUpdate: () => {} });
    toolTimes.push(performance.now() - started);
    if (result.status !== 'SUCCESS') throw new Error(result.error);
    started = performance.now();
    await runner({ command: python, args: ['-c', 'pass'], cwd: callRoot, timeoutMs: 10_000 });
    bareTimes.push(performance.now() - started);
    started = performance.now();
    await runner({ command: 'python3', args: ['-c', 'pass'], cwd: callRoot, timeoutMs: 10_000 });
    shimTimes.push(performance.now() - started);
  }
  report(median(toolTimes), 'ms', `trivial Python tool call, median of ${CALLS} (run_tool.py, no sandbox)`);
  report(median(bareTimes), 'ms', `bare \`${python} -c pass\` through the runner, median`);
  report(median(shimTimes), 'ms', 'bare `python3 -c pass` via PATH (what an unresolved interpreter costs), median');
  report(median(toolTimes) / median(bareTimes), '×', 'tool call vs bare interpreter start');
}
