// Warm dependency imports (issue 38): a warm call of a tool that imports numpy and requests against
// a trivial warm call (module tool and script.py), with the fork-server's preloads on and off; and
// a skill's script that imports pypdf through run_skill_script, warm against cold. Calls are
// interleaved one by one so that every figure of a ratio sees the same machine load.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { defaultSettings } from '../../shared/settings.ts';
import { loadPythonModules } from '../../electron/runtime/sources/python/index.ts';
import { loadScriptFolders } from '../../electron/runtime/sources/script-folder/index.ts';
import { resolvePythonCommand } from '../../electron/runtime/sources/process/resolve-python-command.ts';
import { createSourceContext, helperPools } from '../../electron/runtime/sources/source-context.ts';
import { skillEnvDir } from '../../electron/runtime/sources/skills/skill-env.ts';
import type { SourceContext } from '../../electron/runtime/sources/types.ts';
import { createRuntime, type Runtime } from '../../electron/runtime/create-runtime.ts';
import type { Tool } from '../../electron/runtime/tools/types.ts';
import { percentile, report } from './report.ts';
import { timed } from './warm-python.bench.ts';

const CALLS = 30;
const pools = helperPools();
const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

function context(workDir: string, warm: boolean, preload: boolean, pythonPath?: string): SourceContext {
  const settings = defaultSettings();
  settings.sandbox.mode = 'auto';
  settings.workingDir = workDir;
  settings.runner.warmPython = warm;
  settings.runner.preloadImports = preload;
  if (pythonPath) settings.pythonPath = pythonPath;
  return createSourceContext(settings, mkdtempSync(join(tmpdir(), 'td-bench-home-')), { pools });
}

/**
 * The tools in `ctx`, by name. The heavy and the trivial ones live in folders of their own, so
 * each has its own fork-server (the trivial one preloads nothing) and one's spare refill never
 * delays the other's call.
 */
async function tools(root: string, ctx: SourceContext): Promise<Map<string, Tool>> {
  const [heavy, light] = [join(root, 'heavy-root'), join(root, 'light-root')];
  const modules = await loadPythonModules([{ root: heavy, path: join(heavy, 'deps.py'), format: 'python' }, { root: light, path: join(light, 'trivial.py'), format: 'python' }], ctx);
  const scripts = await loadScriptFolders([{ root: heavy, path: join(heavy, 'heavy'), format: 'script' as const }, { root: light, path: join(light, 'light'), format: 'script' as const }], ctx);
  return new Map([...modules.groups, ...scripts.groups].flatMap((g) => g.tools).map((t) => [t.definition.function.name, t]));
}

function writeTools(root: string): void {
  const [heavy, light] = [join(root, 'heavy-root'), join(root, 'light-root')];
  mkdirSync(heavy);
  mkdirSync(light);
  writeFileSync(join(heavy, 'deps.py'), 'import numpy\nimport requests\n\ndef heavy() -> float:\n    """Uses numpy and requests."""\n    return float(numpy.sum([1, 2])) + len(requests.__name__)\n');
  writeFileSync(join(light, 'trivial.py'), 'def light() -> int:\n    """Does nothing."""\n    return 1\n');
  for (const [name, body] of [['heavy', 'import json, sys\nimport numpy\nimport requests\nprint(json.dumps({"s": float(numpy.sum(json.load(sys.stdin).get("v", [1])))}))\n'], ['light', 'import json, sys\nprint(json.dumps({"s": json.load(sys.stdin)}))\n']] as const) {
    const folder = join(name === 'heavy' ? heavy : light, name);
    mkdirSync(folder);
    writeFileSync(join(folder, 'tool.json'), JSON.stringify({ name, description: name, always_allow: true, parameters: { type: 'object', properties: {} } }));
    writeFileSync(join(folder, 'script.py'), body);
  }
}

/** A virtual environment with pypdf from the local package index, kept between runs (outside /tmp: calls can write /tmp). */
function pypdfPython(base: string): string | undefined {
  const venv = join(homedir(), '.cache', 'tooldesk-bench', 'pypdf-venv');
  const python = join(venv, 'bin', 'python');
  if (!existsSync(python)) spawnSync(base, ['-m', 'venv', venv], { stdio: 'ignore' });
  if (spawnSync(python, ['-c', 'import pypdf'], { stdio: 'ignore' }).status !== 0) spawnSync(join(venv, 'bin', 'pip'), ['install', '-q', 'pypdf'], { stdio: 'ignore', timeout: 300_000 });
  return spawnSync(python, ['-c', 'import pypdf'], { stdio: 'ignore' }).status === 0 ? python : undefined;
}

export async function run(): Promise<void> {
  if (process.platform !== 'linux') return void console.log('  (warm Python runs on Linux only)');
  console.log(`  load: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`);
  const root = mkdtempSync(join(tmpdir(), 'td-bench-deps-'));
  const workDir = mkdtempSync(join(tmpdir(), 'td-bench-wd-'));
  writeTools(root);
  const on = await tools(root, context(workDir, true, true));
  const off = await tools(root, context(workDir, true, false));
  const get = (m: Map<string, Tool>, name: string) => m.get(name)!;
  for (const m of [on, off]) for (const name of ['heavy', 'light', 'script_heavy', 'script_light']) await timed(get(m, name));
  const before = pools.warmPython.counts();
  const t: Record<string, number[]> = {};
  const add = (key: string, ms: number) => (t[key] ??= []).push(ms);
  for (let i = 0; i < CALLS; i++) {
    for (const [label, m] of [['on', on], ['off', off]] as const) {
      for (const name of ['heavy', 'light', 'script_heavy', 'script_light']) add(`${label}:${name}`, await timed(get(m, name)));
    }
  }
  const m = (key: string) => median(t[key]!);
  for (const [kind, heavy, light] of [['module tool', 'heavy', 'light'], ['script.py tool', 'script_heavy', 'script_light']] as const) {
    report(m(`on:${heavy}`), 'ms', `warm call of a ${kind} importing numpy and requests, preloaded (median of ${CALLS})`);
    report(m(`on:${light}`), 'ms', `trivial warm ${kind} call (median of ${CALLS})`);
    report(m(`on:${heavy}`) / m(`on:${light}`), '×', `${kind}: numpy + requests / trivial, warm, preloaded (target ≤ 2×)`);
    report(m(`off:${heavy}`) / m(`off:${light}`), '×', `${kind}: numpy + requests / trivial, warm, preloads off (before: 18.9× module, 18.3× script.py)`);
  }
  report(pools.warmPython.counts().cold - before.cold, 'runs', 'warm-hinted runs that fell back to a cold start (must be 0)');

  await pools.close();
  await skillScriptFigure(workDir);
}

const SKILL = 'pdfbench';
const EXTRACT = 'import sys\nimport pypdf\n\nprint(pypdf.__version__, sys.argv[1:])\n';

/**
 * A skill's script importing pypdf through the real `run_skill_script` (ToolSession: approval,
 * sandbox, audit), with the skill's own environment as `skills deps pdfbench --add pypdf` leaves it,
 * in a runtime whose warm runner is on against one whose runner is cold. The homes live outside
 * /tmp, as a user's does: a call can write /tmp, so nothing there is ever preloaded.
 */
async function skillScriptFigure(workDir: string): Promise<void> {
  const base = await resolvePythonCommand(null, context(workDir, false, false).runner);
  const venvPython = pypdfPython(base);
  if (!venvPython) return void console.log('  (pypdf could not be installed from the package index: skill figure skipped)');
  const runtimes: Record<'warm' | 'cold', Runtime> = {
    warm: await skillRuntime('warm', workDir, dirname(dirname(venvPython)), true),
    cold: await skillRuntime('cold', workDir, dirname(dirname(venvPython)), false),
  };
  const call = async (runtime: Runtime, i: number) => {
    const session = await runtime.toolSession({ sessionId: `bench-${i}`, approve: async () => ({ decision: 'once' }) });
    try {
      const started = performance.now();
      const result = await session.execute('run_skill_script', { skill: SKILL, script: 'scripts/extract.py', args: [String(i)] });
      if (result.status !== 'SUCCESS' || !result.finalText.includes(`['${i}']`)) throw new Error(`skill script: ${JSON.stringify(result)}`);
      return performance.now() - started;
    } finally {
      session.close();
    }
  };
  await call(runtimes.warm, 0);
  await call(runtimes.cold, 0);
  const s = { warm: [] as number[], cold: [] as number[] };
  for (let i = 1; i <= CALLS; i++) {
    s.warm.push(await call(runtimes.warm, i));
    s.cold.push(await call(runtimes.cold, i));
  }
  const preloaded = (await runtimes.warm.helpers()!.warmPython.zygotes()).flatMap((z) => z.preload.preloaded);
  report(median(s.warm), 'ms', `run_skill_script of a script importing pypdf, WARM (preloaded: ${preloaded.join(', ') || 'nothing'}; median of ${CALLS})`);
  report(median(s.cold), 'ms', `same, COLD (median of ${CALLS})`);
  report(median(s.warm) / median(s.cold), '×', 'skill script importing pypdf, warm / cold (target ≤ 0.3×)');
  await Promise.all([runtimes.warm.close(), runtimes.cold.close()]);
}

/** A TOOLDESK_HOME (kept between runs) holding the skill and its environment (a link to the venv). */
async function skillRuntime(name: string, workDir: string, venv: string, warm: boolean): Promise<Runtime> {
  const home = join(homedir(), '.cache', 'tooldesk-bench', `skill-home-${name}`);
  rmSync(home, { recursive: true, force: true });
  const skill = join(home, 'skills', SKILL);
  mkdirSync(join(skill, 'scripts'), { recursive: true });
  writeFileSync(join(skill, 'SKILL.md'), `---\nname: ${SKILL}\ndescription: Reads PDFs with pypdf.\n---\n\nRun scripts/extract.py.\n`);
  writeFileSync(join(skill, 'scripts', 'extract.py'), EXTRACT);
  mkdirSync(dirname(skillEnvDir(home, SKILL)), { recursive: true });
  symlinkSync(venv, skillEnvDir(home, SKILL));
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ workingDir: workDir, runner: { warmPython: warm } }));
  return createRuntime({ home, tools: { mcp: false, cwd: workDir } });
}

