// What a hostile Python tool can do to the warm fork-server: double-fork away from its group,
// ignore SIGTERM, start its own session, fork-bomb, crash, leave state behind for the next call.
// Real module tools through the sandboxed warm runner: each call ends killed, bounded or failed
// on its own, nothing outlives it, the next call starts clean, and the zygote survives.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../shared/settings.ts';
import { childPids } from '../../electron/runtime/runner/warm-python/host-pid.ts';
import { loadPythonModules } from '../../electron/runtime/sources/python/index.ts';
import { createSourceContext, helperPools } from '../../electron/runtime/sources/source-context.ts';
import type { SourceContext } from '../../electron/runtime/sources/types.ts';
import type { Tool, ToolRunResult } from '../../electron/runtime/tools/types.ts';
import { isAlive, waitNoneWithMarker } from '../support/live-processes.ts';
import { realPython } from '../support/real-python.ts';

/** This file's own warm-Python fork-servers (and module hosts): nothing in the runtime is process-wide. */
const pools = helperPools();

const marker = `tdwarm${process.pid}x${Date.now()}`;
const SLEEPER = `["sh", "-c", "sleep 30; : ${marker}"]`;

const MODULE = `
import os, signal, subprocess, sys, time


COUNTER = 0

def ignores_term_and_double_forks() -> str:
    """Ignores SIGTERM; a grandchild double-forks into its own session and sleeps."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execvp("sh", ${SLEEPER})
        os._exit(0)
    subprocess.Popen(${SLEEPER})
    while True:
        time.sleep(0.05)
ignores_term_and_double_forks.timeout = 1

def escapes_and_returns() -> str:
    """Leaves a child in its own session behind and returns at once."""
    subprocess.Popen(${SLEEPER}, start_new_session=True)
    return "done"

def forks_200() -> str:
    """Starts 200 sleepers."""
    ps = [subprocess.Popen(${SLEEPER}) for _ in range(200)]
    time.sleep(30)
    return "not reached"

def fork_bomb() -> str:
    """Forks without end."""
    while True:
        try:
            os.fork()
        except OSError:
            time.sleep(0.01)

def sleeps() -> str:
    """Sleeps."""
    time.sleep(30)
    return "woke"

def hogs_memory() -> int:
    """Asks for 3 GB."""
    return len(bytearray(3 * 1024 ** 3))

def crashes() -> str:
    """Dies of a segmentation fault."""
    os.kill(os.getpid(), signal.SIGSEGV)

def leaves_state(tag: str) -> dict:
    """Reports what an earlier call left, then leaves some of its own."""
    global COUNTER
    COUNTER += 1
    seen = {
        "counter": COUNTER,
        "env": os.environ.get("LEFT_BY_CALL"),
        "tmp": sorted(n for n in os.listdir("/tmp") if n.startswith("left-")),
        "module": "left_module" in sys.modules,
        "cwd": os.getcwd(),
    }
    os.environ["LEFT_BY_CALL"] = tag
    open("/tmp/left-" + tag, "w").write(tag)
    sys.modules["left_module"] = sys
    return seen
`;

function call(tool: Tool, args: Record<string, unknown> = {}, signal: AbortSignal = new AbortController().signal): Promise<ToolRunResult & { ms: number }> {
  const started = Date.now();
  return tool.execute(args, { callId: 'c', sessionId: 's', signal, onUpdate: () => {} }).then((r) => ({ ...r, ms: Date.now() - started }));
}

/** The zygotes' children now alive (zombies count as dead): each is a call still running. */
/** The zygotes' live children but their spares (forked ahead of a call; no tool code ran there). */
function liveCallProcesses(zygotes: Array<{ hostPid: number; spares: number[] }>): number[] {
  return zygotes.flatMap((z) => childPids(z.hostPid).filter((pid) => !z.spares.includes(pid))).filter(isAlive);
}

describe.skipIf(!realPython() || process.platform !== 'linux')('hostile Python tools on the warm fork-server', () => {
  let tools: Map<string, Tool>;
  let ctx: SourceContext;
  let folder: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'td-warm-'));
    writeFileSync(join(folder, 'hostile.py'), MODULE);
    const settings = defaultSettings();
    settings.pythonPath = realPython();
    settings.workingDir = mkdtempSync(join(tmpdir(), 'td-wd-'));
    settings.limits.maxProcesses = 64;
    settings.runner.warmPython = true;
    ctx = createSourceContext(settings, mkdtempSync(join(tmpdir(), 'td-home-')), { pools, runnerOptions: { killGraceMs: 300 } });
    const loaded = await loadPythonModules([{ root: folder, path: join(folder, 'hostile.py'), format: 'python' }], ctx);
    tools = new Map(loaded.groups.flatMap((g) => g.tools).map((t) => [t.definition.function.name, t]));
  });
  afterAll(() => pools.warmPython.stop());

  it('kills a call that ignores SIGTERM and double-forks into its own session, leaving nothing', async () => {
    const before = pools.warmPython.counts();
    const r = await call(tools.get('ignores_term_and_double_forks')!);
    expect(r.status).toBe('ERROR');
    expect(r.error).toMatch(/timed out/i);
    expect(r.ms).toBeLessThan(4000);
    expect(pools.warmPython.counts().warm).toBe(before.warm + 1);
    expect(await waitNoneWithMarker(marker)).toEqual([]);
    expect(liveCallProcesses(await pools.warmPython.zygotes())).toEqual([]);
  });

  it('kills what a call left in its own session once the call returns', async () => {
    const r = await call(tools.get('escapes_and_returns')!);
    expect(r.status).toBe('SUCCESS');
    expect(r.data).toBe('done');
    expect(await waitNoneWithMarker(marker)).toEqual([]);
  });

  it('stops a call that starts 200 processes at the process bound', async () => {
    const r = await call(tools.get('forks_200')!);
    expect(r.status).toBe('ERROR');
    expect(`${r.error}\n${r.logs}`).toMatch(/limited to 64/);
    expect(r.ms).toBeLessThan(10_000);
    expect(await waitNoneWithMarker(marker)).toEqual([]);
  });

  it('ends a fork bomb at the process bound, and the zygote serves the next call', async () => {
    const zygotes = await pools.warmPython.zygotes();
    const r = await call(tools.get('fork_bomb')!);
    expect(r.status).toBe('ERROR');
    expect(`${r.error}\n${r.logs}`).toMatch(/limited to 64|more than 64 processes/);
    const deadline = Date.now() + 3000;
    while (liveCallProcesses(await pools.warmPython.zygotes()).length > 0 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
    expect(liveCallProcesses(await pools.warmPython.zygotes())).toEqual([]);
    const next = await call(tools.get('escapes_and_returns')!);
    expect(next.status).toBe('SUCCESS');
    expect((await pools.warmPython.zygotes()).map((z) => z.hostPid)).toEqual(zygotes.map((z) => z.hostPid));
  });

  it('cancels a call on abort', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const r = await call(tools.get('sleeps')!, {}, controller.signal);
    expect(r.status).toBe('ERROR');
    expect(r.error).toMatch(/abort/i);
    expect(r.ms).toBeLessThan(3000);
    expect(liveCallProcesses(await pools.warmPython.zygotes())).toEqual([]);
  });

  it('bounds memory as a cold run does (RLIMIT_DATA)', async () => {
    const r = await call(tools.get('hogs_memory')!);
    expect(r.status).toBe('ERROR');
    expect(r.error).toMatch(/MemoryError/);
    const settings = defaultSettings();
    settings.pythonPath = realPython();
    settings.runner.warmPython = false;
    const coldCtx = createSourceContext(settings, mkdtempSync(join(tmpdir(), 'td-home-')), { pools });
    const cold = (await loadPythonModules([{ root: folder, path: join(folder, 'hostile.py'), format: 'python' }], coldCtx)).groups[0]!.tools.find((t) => t.definition.function.name === 'hogs_memory')!;
    const c = await call(cold);
    expect({ status: r.status, error: r.error, warnings: r.warnings }).toEqual({ status: c.status, error: c.error, warnings: c.warnings });
  });

  it("a call's crash is that call's error, not the zygote's", async () => {
    const zygotes = (await pools.warmPython.zygotes()).map((z) => z.hostPid);
    const r = await call(tools.get('crashes')!);
    expect(r.status).toBe('ERROR');
    expect(r.error).toMatch(/before reporting a result/);
    expect((await pools.warmPython.zygotes()).map((z) => z.hostPid)).toEqual(zygotes);
    expect((await call(tools.get('escapes_and_returns')!)).status).toBe('SUCCESS');
  });

  it('leaks no state between calls: globals, environment, /tmp, sys.modules', async () => {
    const first = await call(tools.get('leaves_state')!, { tag: 'one' });
    const second = await call(tools.get('leaves_state')!, { tag: 'two' });
    expect(first.status).toBe('SUCCESS');
    const clean = { counter: 1, env: null, tmp: [], module: false };
    expect(first.data).toMatchObject(clean);
    expect(second.data).toMatchObject(clean);
  });

  it('imports a module edited on disk afresh', async () => {
    const edited = join(folder, 'edited.py');
    writeFileSync(edited, 'def version() -> int:\n    """v"""\n    return 1\n');
    const load = async () => (await loadPythonModules([{ root: folder, path: edited, format: 'python' }], ctx)).groups[0]!.tools[0]!;
    expect((await call(await load())).data).toBe(1);
    writeFileSync(edited, 'def version() -> int:\n    """v"""\n    return 22  # edited\n');
    expect((await call(await load())).data).toBe(22);
  });

  it('starts a new zygote when the old one died', async () => {
    const [zygote] = await pools.warmPython.zygotes();
    process.kill(zygote!.hostPid, 'SIGKILL');
    await new Promise((res) => setTimeout(res, 200));
    const r = await call(tools.get('escapes_and_returns')!);
    expect(r.status).toBe('SUCCESS');
    const now = await pools.warmPython.zygotes();
    expect(now.length).toBe(1);
    expect(now[0]!.hostPid).not.toBe(zygote!.hostPid);
  });
});
