// Issue 38: warm dependency imports never let user code into a fork-server, and never carry a
// call's changes to the next. Real Python tools through the sandboxed warm runner: a tool folder
// that ships its own `numpy.py` or `requests/` gets neither preloaded (and its calls import their
// own), modules that start a thread, take too long or fail at import are left out with the reason,
// and a call that mutates a preloaded module leaves the next call exactly as it was.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { defaultSettings } from '../../shared/settings.ts';
import { withCallTrace, type CallTrace } from '../../electron/runtime/tools/call-trace.ts';
import { discoverTools } from '../../electron/runtime/sources/discovery/discover-tools.ts';
import { createSourceContext, helperPools } from '../../electron/runtime/sources/source-context.ts';
import type { Tool, ToolRunResult } from '../../electron/runtime/tools/types.ts';
import { crossCallLedger } from '../support/cross-call-ledger.ts';
import { TOOL_FIXTURES } from '../support/fixture-entries.ts';
import { realPython } from '../support/real-python.ts';

const pools = helperPools();

/** Installed modules (outside every tool and writable folder) that misbehave at import. */
const SITE = fileURLToPath(new URL('../fixtures/preload-site/', import.meta.url));

/**
 * A Python with SITE installed (a virtual environment whose site-packages lists it in a .pth):
 * tools run with -E (issue 32 §8), so PYTHONPATH cannot stand in for an installed package. Under
 * the home, not /tmp: the sandbox's /tmp is private, and the interpreter must be visible in it.
 */
function pythonWithSite(): { python: string; remove: () => void } {
  const dir = mkdtempSync(join(venvParent(), '.td-preload-venv-'));
  execFileSync(realPython()!, ['-m', 'venv', '--system-site-packages', '--without-pip', dir]);
  const python = join(dir, 'bin', 'python');
  const purelib = execFileSync(python, ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], { encoding: 'utf8' }).trim();
  writeFileSync(join(purelib, 'td-preload-site.pth'), `${SITE}\n`);
  return { python, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function toolsIn(root: string, tune: (s: ReturnType<typeof defaultSettings>) => void = () => {}): Promise<Map<string, Tool>> {
  const settings = defaultSettings();
  settings.pythonPath = realPython();
  settings.workingDir = mkdtempSync(join(tmpdir(), 'td-wd-'));
  settings.runner.warmPython = true;
  tune(settings);
  const ctx = createSourceContext(settings, mkdtempSync(join(tmpdir(), 'td-home-')), { pools });
  const loaded = await discoverTools([root], ctx);
  return new Map(loaded.groups.flatMap((g) => g.tools).map((t) => [t.definition.function.name, t]));
}

const call = (tool: Tool, args: Record<string, unknown> = {}): Promise<ToolRunResult> =>
  tool.execute(args, { callId: 'c', sessionId: 's', signal: AbortSignal.timeout(20_000), onUpdate: () => {} });

/** The preload outcome of the only fork-server alive. */
async function onlyZygote() {
  const zygotes = await pools.warmPython.zygotes();
  expect(zygotes).toHaveLength(1);
  return zygotes[0]!.preload;
}

const folder = (name: string) => mkdtempSync(join(tmpdir(), `td-preload-${name}-`));

describe.skipIf(!realPython() || process.platform !== 'linux')('warm dependency imports (hostile)', () => {
  const ledger = crossCallLedger('warm Python preloads');
  afterEach(() => pools.warmPython.stop());
  afterAll(() => ledger.print());

  it('preloads numpy and requests for a folder that imports them, and says so on the run', async () => {
    const root = join(folder('deps'), 'py-preload-deps');
    cpSync(join(TOOL_FIXTURES, 'py-preload-deps'), root, { recursive: true });
    const tools = await toolsIn(root);
    const trace: CallTrace = { processes: [] };
    const result = await withCallTrace(trace, () => call(tools.get('numpy_mean')!, { values: [2, 4] }));
    expect(result.status).toBe('SUCCESS');
    expect((result.data as { mean: number }).mean).toBe(3);
    const preload = await onlyZygote();
    expect(preload.preloaded).toEqual(['numpy', 'requests']);
    // Inspect's record of the run names them.
    expect(trace.processes.map((p) => p.preloaded)).toEqual([['numpy', 'requests']]);
  });

  it('does not preload a numpy.py or requests/ package a tool folder ships: its calls import their own', async () => {
    const root = folder('shadow');
    writeFileSync(join(root, 'numpy.py'), 'OWN = "the folder\'s numpy"\n');
    mkdirSync(join(root, 'requests'));
    writeFileSync(join(root, 'requests', '__init__.py'), 'OWN = "the folder\'s requests"\n');
    writeFileSync(join(root, 'uses.py'), 'import numpy\nimport requests\nimport json\n\ndef which() -> list:\n    """Which numpy and requests it got."""\n    return [numpy.OWN, requests.OWN]\n');
    const tools = await toolsIn(root);
    const result = await call(tools.get('which')!);
    expect(result.data).toEqual(["the folder's numpy", "the folder's requests"]);
    const preload = await onlyZygote();
    expect(preload.preloaded).not.toContain('numpy');
    expect(preload.preloaded).not.toContain('requests');
    expect(preload.leftOut.map((l) => l.name).sort()).toEqual(['numpy', 'requests']);
    for (const l of preload.leftOut) expect(l.why).toContain('has its own');
  });

  it('a module a tool folder gains after its fork-server started is imported from the folder, not the preload', async () => {
    const root = join(folder('late'), 'py-preload-deps');
    cpSync(join(TOOL_FIXTURES, 'py-preload-deps'), root, { recursive: true });
    const tools = await toolsIn(root);
    const first = await call(tools.get('script_numpy_sum')!, {});
    expect((await onlyZygote()).preloaded).toContain('numpy');
    // One copy of each module: the script's json is the one requests' errors derive from.
    expect(first.data).toMatchObject({ sum: 3, json_errors_match: true });
    writeFileSync(join(root, 'numpy_sum', 'numpy.py'), 'pi = "the folder\'s numpy"\ndef sum(values):\n    return -1\n');
    const result = await call(tools.get('script_numpy_sum')!, { values: [1] });
    expect(result.data).toEqual({ sum: -1, requests: 'requests', pi: "the folder's numpy", json_errors_match: true });
  });

  it('leaves out a module whose import starts a thread, takes longer than the bound or fails, with the reason', async () => {
    const root = folder('site');
    // td_fails_import raises at import: the tool guards it, as tools with optional imports do.
    writeFileSync(join(root, 'odd.py'), 'try:\n    import td_fails_import\nexcept ImportError:\n    pass\nimport td_thread_at_import\nimport td_slow_import\nimport td_plain\n\ndef values() -> list:\n    """What each module holds."""\n    return [td_thread_at_import.VALUE, td_slow_import.VALUE, td_plain.VALUE]\n');
    const site = pythonWithSite();
    onTestFinished(site.remove);
    const tools = await toolsIn(root, (s) => {
      s.pythonPath = site.python;
      s.runner.preloadMaxMs = 1000;
    });
    const started = Date.now();
    const result = await call(tools.get('values')!);
    expect(result.status, result.error).toBe('SUCCESS');
    expect(result.data).toEqual(['thread module', 'slow module', 'plain module']);
    const preload = await onlyZygote();
    expect(preload.preloaded).toEqual(['td_plain']);
    const why = Object.fromEntries(preload.leftOut.map((l) => [l.name, l.why]));
    expect(why.td_thread_at_import).toBe('its import starts a thread');
    expect(why.td_slow_import).toBe('its import took longer than 1 s');
    expect(why.td_fails_import).toMatch(/^its import failed: ImportError: td_fails_import needs libmissing.so/);
    // The slow import was cut at its bound, not waited out (3 s) — plus the call's own import of it.
    console.log(`first call with a slow, a threaded and a failing import: ${Date.now() - started} ms`);
    // The fork-server has no thread: a second call is served warm like the first.
    const warm = pools.warmPython.counts().warm;
    expect((await call(tools.get('values')!)).status).toBe('SUCCESS');
    expect(pools.warmPython.counts().warm).toBe(warm + 1);
  }, 60_000);

  it('a call that mutates numpy.__dict__ and requests.Session defaults leaves the next call unchanged', async () => {
    const root = join(folder('mutate'), 'py-preload-deps');
    cpSync(join(TOOL_FIXTURES, 'py-preload-deps'), root, { recursive: true });
    const tools = await toolsIn(root);
    const before = await call(tools.get('numpy_mean')!, { values: [1] });
    expect(before.data).toMatchObject({ pi: Math.PI, trust_env: true, numpy_attrs: false, user_agent_starts: 'python-requests' });
    expect((await onlyZygote()).preloaded).toEqual(expect.arrayContaining(['numpy', 'requests']));
    const attack = await call(tools.get('mutate_modules')!);
    expect(attack.data).toEqual({ pi: 3, trust_env: false });
    for (let i = 0; i < 3; i++) {
      const after = await call(tools.get('numpy_mean')!, { values: [1] });
      ledger.record('a call mutating preloaded numpy and requests', before, after);
      expect(after.data).toEqual(before.data);
    }
  });

  it('with preloads off, nothing is imported ahead', async () => {
    const root = join(folder('off'), 'py-preload-deps');
    cpSync(join(TOOL_FIXTURES, 'py-preload-deps'), root, { recursive: true });
    const tools = await toolsIn(root, (s) => (s.runner.preloadImports = false));
    expect((await call(tools.get('numpy_mean')!, { values: [1] })).status).toBe('SUCCESS');
    expect(await onlyZygote()).toEqual({ preloaded: [], leftOut: [] });
  });
});

/**
 * Where the test's environment goes: the home, unless it sits in a folder calls can write (CI
 * runs with HOME under /tmp), then /var/lib (the suite runs as root there), which calls see
 * read-only like any installed interpreter.
 */
function venvParent(): string {
  const home = homedir();
  const writableByCalls = ['/tmp', '/var/tmp', '/dev/shm', tmpdir()].some((t) => home === t || home.startsWith(`${t}/`));
  return writableByCalls && process.getuid?.() === 0 ? '/var/lib' : home;
}
