// The warm Python fork-server against a cold interpreter start, side by side in one run and
// interleaved call by call (so both see the same machine load): a trivial module tool, an
// Agenvoy script.py, and 50 parallel calls of a 100 ms tool (wall time, peak processes).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSettings } from '../../shared/settings.ts';
import { resolvePythonCommand } from '../../electron/runtime/sources/process/resolve-python-command.ts';
import { loadPythonModules } from '../../electron/runtime/sources/python/index.ts';
import { loadScriptFolders } from '../../electron/runtime/sources/script-folder/index.ts';
import { createSourceContext, helperPools } from '../../electron/runtime/sources/source-context.ts';
import type { SourceContext } from '../../electron/runtime/sources/types.ts';
import type { Tool } from '../../electron/runtime/tools/types.ts';
import { percentile, report } from './report.ts';

/** This file's own warm-Python fork-servers (and module hosts): nothing in the runtime is process-wide. */
const pools = helperPools();

const CALLS = 200;
const SCRIPT_CALLS = 50;
const PARALLEL = 50;

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

function context(warm: boolean, workDir: string, maxProcesses?: number): SourceContext {
  const settings = defaultSettings();
  settings.sandbox.mode = 'auto';
  if (maxProcesses !== undefined) settings.limits.maxProcesses = maxProcesses;
  settings.workingDir = workDir;
  settings.runner.warmPython = warm;
  return createSourceContext(settings, mkdtempSync(join(tmpdir(), 'td-bench-home-')), { pools });
}

async function timed(tool: Tool, args: Record<string, unknown> = {}): Promise<number> {
  const started = performance.now();
  const result = await tool.execute(args, { callId: 'b', sessionId: 'b', signal: new AbortController().signal, onUpdate: () => {} });
  if (result.status !== 'SUCCESS') throw new Error(`${tool.definition.function.name}: ${result.error}`);
  return performance.now() - started;
}

/** Processes on the machine now. */
function processCount(): number {
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length;
}

async function parallel(tool: Tool): Promise<{ wallMs: number; peak: number }> {
  const baseline = processCount();
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, processCount() - baseline)), 5);
  const started = performance.now();
  await Promise.all(Array.from({ length: PARALLEL }, () => timed(tool)));
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  return { wallMs, peak };
}

export async function run(): Promise<void> {
  if (process.platform !== 'linux') return void console.log('  (warm Python runs on Linux only)');
  const root = mkdtempSync(join(tmpdir(), 'td-bench-warm-'));
  const workDir = mkdtempSync(join(tmpdir(), 'td-bench-wd-'));
  writeFileSync(join(root, 'trivial.py'), 'def noop() -> int:\n    """Does nothing."""\n    return 1\n\ndef nap() -> int:\n    """Sleeps 100 ms."""\n    import time\n    time.sleep(0.1)\n    return 1\n');
  mkdirSync(join(root, 'echo'));
  writeFileSync(join(root, 'echo', 'tool.json'), JSON.stringify({ name: 'echo', description: 'echo', always_allow: true, parameters: { type: 'object', properties: {} } }));
  writeFileSync(join(root, 'echo', 'script.py'), 'import json, sys\nprint(json.dumps({"got": json.load(sys.stdin)}))\n');

  const ctx = { warm: context(true, workDir), cold: context(false, workDir) };
  const python = await resolvePythonCommand(ctx.warm.pythonPath, ctx.warm.runner);
  const tools = async (c: SourceContext) => {
    const modules = await loadPythonModules([{ root, path: join(root, 'trivial.py'), format: 'python' }], c);
    const scripts = await loadScriptFolders([{ root, path: join(root, 'echo'), format: 'script' }], c);
    const byName = new Map([...modules.groups, ...scripts.groups].flatMap((g) => g.tools).map((t) => [t.definition.function.name, t]));
    return { noop: byName.get('noop')!, nap: byName.get('nap')!, script: byName.get('script_echo')! };
  };
  const warm = await tools(ctx.warm);
  const cold = await tools(ctx.cold);
  // Zygotes start on first use: once each, outside the timings.
  await timed(warm.noop);
  await timed(warm.script);
  const before = pools.warmPython.counts();

  const times = { warm: [] as number[], cold: [] as number[], bare: [] as number[] };
  for (let i = 0; i < CALLS; i++) {
    times.warm.push(await timed(warm.noop));
    times.cold.push(await timed(cold.noop));
    const started = performance.now();
    spawnSync(python, ['-I', '-S', '-c', 'pass']);
    times.bare.push(performance.now() - started);
  }
  const [w, c, b] = [median(times.warm), median(times.cold), median(times.bare)];
  report(w, 'ms', `trivial module tool call, sandboxed, WARM (median of ${CALLS}; p95 ${percentile([...times.warm].sort((x, y) => x - y), 95).toFixed(2)} ms)`);
  report(c, 'ms', `trivial module tool call, sandboxed, COLD (median of ${CALLS})`);
  report(b, 'ms', `bare \`${python} -I -S -c pass\`, unsandboxed (median of ${CALLS})`);
  report(c / w, '×', 'cold / warm (how much faster warm is)');
  report(w / b, '×', 'warm / bare interpreter start (target ≤ 1.0)');

  if (process.getuid?.() === 0) {
    // Root gets a pids cgroup per run (RLIMIT_NPROC does not bind root); joining one costs the
    // kernel a grace period per call. Without a process bound there is none: what warm costs
    // apart from that.
    const unbounded = { warm: await tools(context(true, workDir, 0)), cold: await tools(context(false, workDir, 0)) };
    await timed(unbounded.warm.noop);
    const t = { warm: [] as number[], cold: [] as number[], bare: [] as number[] };
    for (let i = 0; i < SCRIPT_CALLS; i++) {
      t.warm.push(await timed(unbounded.warm.noop));
      t.cold.push(await timed(unbounded.cold.noop));
      const started = performance.now();
      spawnSync(python, ['-I', '-S', '-c', 'pass']);
      t.bare.push(performance.now() - started);
    }
    report(median(t.warm), 'ms', `same, no process bound (no per-run pids cgroup), WARM (median of ${SCRIPT_CALLS})`);
    report(median(t.cold), 'ms', `same, no process bound, COLD (median of ${SCRIPT_CALLS})`);
    report(median(t.bare), 'ms', `bare interpreter start meanwhile (median of ${SCRIPT_CALLS})`);
    report(median(t.warm) / median(t.bare), '×', 'warm without the cgroup / bare interpreter start');
  }

  const script = { warm: [] as number[], cold: [] as number[] };
  for (let i = 0; i < SCRIPT_CALLS; i++) {
    script.warm.push(await timed(warm.script, { a: i }));
    script.cold.push(await timed(cold.script, { a: i }));
  }
  report(median(script.warm), 'ms', `Agenvoy script.py call, sandboxed, WARM (median of ${SCRIPT_CALLS})`);
  report(median(script.cold), 'ms', `Agenvoy script.py call, sandboxed, COLD (median of ${SCRIPT_CALLS})`);
  report(median(script.cold) / median(script.warm), '×', 'script.py cold / warm');

  await timed(warm.nap);
  const pw = await parallel(warm.nap);
  const pc = await parallel(cold.nap);
  report(pw.wallMs, 'ms', `${PARALLEL} parallel calls of a 100 ms tool, WARM: wall time`);
  report(pc.wallMs, 'ms', `${PARALLEL} parallel calls of a 100 ms tool, COLD: wall time`);
  report(pw.peak, 'processes', `peak extra processes during the ${PARALLEL} WARM calls`);
  report(pc.peak, 'processes', `peak extra processes during the ${PARALLEL} COLD calls`);
  const after = pools.warmPython.counts();
  report(after.cold - before.cold, 'runs', 'warm-hinted runs that fell back to a cold start (must be 0)');
  await pools.warmPython.stop();
}
