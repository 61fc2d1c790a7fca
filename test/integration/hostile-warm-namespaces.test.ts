// Issue 32 §12, §13, §15: what warm calls on one fork-server must not share. Real Python module
// tools through the sandboxed warm runner (real bubblewrap): a call's /proc is its own PID
// namespace's (no pid of the fork-server, its spare or another call), /dev/shm and System V
// shared memory left by one call are gone for the next, and a secret file created after the
// fork-server started is hidden from the very next call.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../shared/settings.ts';
import { detectSandbox } from '../../electron/runtime/runner/sandbox-detect.ts';
import { loadPythonModules } from '../../electron/runtime/sources/python/index.ts';
import { createSourceContext, helperPools } from '../../electron/runtime/sources/source-context.ts';
import type { Tool, ToolRunResult } from '../../electron/runtime/tools/types.ts';
import { crossCallLedger } from '../support/cross-call-ledger.ts';
import { realPython } from '../support/real-python.ts';

const MODULE = `
import ctypes, os, time

libc = ctypes.CDLL(None, use_errno=True)
libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
KEY = 0x7D0C5E11
IPC_CREAT = 0o1000

def leave_shared_memory() -> dict:
    """Leaves a file in /dev/shm and a System V segment for whoever comes next."""
    with open("/dev/shm/left-by-a-call", "w") as f:
        f.write("secret of an earlier call")
    shmid = libc.shmget(KEY, 4096, IPC_CREAT | 0o666)
    return {"shmid_ok": shmid >= 0}

def shared_memory() -> dict:
    """What this call finds in /dev/shm and under the System V key."""
    return {"dev_shm": sorted(os.listdir("/dev/shm")), "sysv": libc.shmget(KEY, 0, 0) >= 0}

def processes() -> dict:
    """Every pid this call's /proc lists, and its own pid as /proc and as the kernel number it."""
    return {
        "pids": sorted(int(n) for n in os.listdir("/proc") if n.isdigit()),
        "me": os.getpid(),
        "self": int(os.readlink("/proc/self")),
    }

def sleeps() -> str:
    """Stays alive a while (another call, running beside)."""
    time.sleep(2)
    return "slept"

def read(path: str) -> str:
    """Reads a file, or says why it cannot."""
    try:
        with open(path) as f:
            return "read: " + f.read()
    except OSError as e:
        return "unreadable: " + e.strerror
`;

const pools = helperPools();

function call(tool: Tool | undefined, args: Record<string, unknown> = {}): Promise<ToolRunResult> {
  if (!tool) throw new Error('tool not loaded');
  return tool.execute(args, { callId: 'c', sessionId: 's', signal: new AbortController().signal, onUpdate: () => {} });
}

describe.skipIf(!realPython() || detectSandbox().kind !== 'bwrap')('warm calls share no /proc, /dev/shm, IPC or stale mask', () => {
  let tools: Map<string, Tool>;
  let workDir: string;
  const ledger = crossCallLedger('warm Python namespaces');

  beforeAll(async () => {
    const folder = mkdtempSync(join(tmpdir(), 'td-warm-ns-'));
    writeFileSync(join(folder, 'ns.py'), MODULE);
    const settings = defaultSettings();
    settings.pythonPath = realPython();
    workDir = mkdtempSync(join(tmpdir(), 'td-wd-'));
    settings.workingDir = workDir;
    settings.runner.warmPython = true;
    const ctx = createSourceContext(settings, mkdtempSync(join(tmpdir(), 'td-home-')), { pools, runnerOptions: { killGraceMs: 300 } });
    const loaded = await loadPythonModules([{ root: folder, path: join(folder, 'ns.py'), format: 'python' }], ctx);
    tools = new Map(loaded.groups.flatMap((g) => g.tools).map((t) => [t.definition.function.name, t]));
  });
  afterAll(async () => {
    ledger.print();
    await pools.close();
  });

  it('/dev/shm and System V shared memory left by a warm call are not there for the next one (§13)', async () => {
    const before = await call(tools.get('shared_memory'));
    expect(before.data).toEqual({ dev_shm: [], sysv: false });
    const warm = pools.warmPython.counts().warm;
    const left = await call(tools.get('leave_shared_memory'));
    expect(left.data).toEqual({ shmid_ok: true });
    const after = await call(tools.get('shared_memory'));
    expect(pools.warmPython.counts().warm).toBe(warm + 2);
    ledger.record('/dev/shm file and System V segment left by a call', before, after);
    expect(after.data).toEqual({ dev_shm: [], sysv: false });
  });

  it("a warm call's /proc lists its own processes only, while another call and the spare are alive (§15)", async () => {
    await call(tools.get('processes'));
    const beside = call(tools.get('sleeps'));
    // The other call is running (its zygote counts it busy) before this one looks.
    const end = Date.now() + 5000;
    while (!(await pools.warmPython.zygotes()).some((z) => z.busy > 0) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    const [zygote] = await pools.warmPython.zygotes();
    expect(zygote?.busy).toBe(1);
    const warm = pools.warmPython.counts().warm;
    const seen = await call(tools.get('processes'));
    expect(pools.warmPython.counts().warm).toBe(warm + 1);
    const { pids, me, self } = seen.data as { pids: number[]; me: number; self: number };
    // Pid 1 is the call's own init (as in a cold run's sandbox), then the tool itself.
    expect({ pids, self }).toEqual({ pids: [1, me], self: me });
    expect((await beside).data).toBe('slept');
  });

  it('a secret file created after the fork-server started is hidden from the next call (§12)', async () => {
    const plain = join(workDir, 'notes.txt');
    writeFileSync(plain, 'plain');
    expect((await call(tools.get('read'), { path: plain })).data).toBe('read: plain');
    const zygotes = (await pools.warmPython.zygotes()).map((z) => z.hostPid);
    // Created now, with the fork-server running: the very next call must not read it.
    const secret = join(workDir, '.env');
    writeFileSync(secret, 'API_KEY=made-after-start');
    const warm = pools.warmPython.counts().warm;
    const read = await call(tools.get('read'), { path: secret });
    expect(pools.warmPython.counts().warm).toBe(warm + 1);
    // Served by the same fork-server, not by one started afresh.
    expect((await pools.warmPython.zygotes()).map((z) => z.hostPid)).toEqual(zygotes);
    expect(read.error ?? read.data).not.toContain("made-after-start");
    const key = join(workDir, 'deploy.key');
    writeFileSync(key, 'PRIVATE KEY');
    expect((await call(tools.get('read'), { path: key })).data).not.toContain('PRIVATE KEY');
    expect((await call(tools.get('read'), { path: plain })).data).toBe('read: plain');
  });
});
