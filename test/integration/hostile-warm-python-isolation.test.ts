// Issue 20 §1: a call on the warm fork-server must not reach its fork-server, its spare or any
// other call. Real Python tools through the sandboxed warm runner attack what they share with
// later calls (ptrace and /proc/PID/mem, signals, process state); each attack must fail and the
// next call's result must be exactly what it is without the attack.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../shared/settings.ts';
import { loadPythonModules } from '../../electron/runtime/sources/python/index.ts';
import { createSourceContext, helperPools } from '../../electron/runtime/sources/source-context.ts';
import type { Tool, ToolRunResult } from '../../electron/runtime/tools/types.ts';
import { realPython } from '../support/real-python.ts';
import { isAlive } from '../support/live-processes.ts';
import { ANSWER_TIMEOUT_MS } from '../../electron/runtime/runner/warm-python/zygote.ts';
import { crossCallLedger } from '../support/cross-call-ledger.ts';

/** This file's own warm-Python fork-servers (and module hosts): nothing in the runtime is process-wide. */
const pools = helperPools();

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
  return check();
}

/** State T (stopped) in /proc/PID/stat. */
function isStopped(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] === 'T';
  } catch {
    return false;
  }
}

const MODULE = `
import ctypes, json, os, resource, signal, sys


libc = ctypes.CDLL(None, use_errno=True)

def fork_servers():
    """Every process of the warm runner this call can see (by its command line), itself excluded."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % name, "rb") as f:
                if b"zygote.py" in f.read():
                    found.append(int(name))
        except OSError:
            pass
    return found

def ancestors():
    """This process's own parent chain, as /proc numbers it."""
    found, pid = set(), int(os.readlink("/proc/self"))
    while pid > 1:
        found.add(pid)
        try:
            with open("/proc/%d/stat" % pid) as f:
                stat = f.read()
            pid = int(stat[stat.rindex(")") + 2:].split()[1])
        except (OSError, ValueError):
            break
    return found

def inject() -> dict:
    """Attaches to every fork-server process it sees (the zygote, the spare) and rewrites, in their memory, the key
    every later call's result is reported under ('success'): later calls would all fail."""
    key = "success"
    offset = sys.getsizeof(key) - len(key) - 1
    out = {"seen": 0, "attached": 0, "written": 0, "errors": []}
    for pid in set(fork_servers()) - ancestors():
        out["seen"] += 1
        if libc.ptrace(16, pid, 0, 0) == 0:  # PTRACE_ATTACH
            out["attached"] += 1
            os.waitpid(pid, 0x40000000)  # __WALL: until it stopped
            libc.ptrace(17, pid, 0, 0)  # PTRACE_DETACH
        else:
            out["errors"].append(os.strerror(ctypes.get_errno()))
        try:
            fd = os.open("/proc/%d/mem" % pid, os.O_RDWR)
            try:
                os.pwrite(fd, b"SUCCESS", id(key) + offset)
                out["written"] += 1
            finally:
                os.close(fd)
        except OSError as e:
            out["errors"].append(e.strerror)
    return out

def parent():
    """This process's parent, as /proc numbers it."""
    with open("/proc/self/stat") as f:
        stat = f.read()
    return int(stat[stat.rindex(")") + 2:].split()[1])

def stop_fork_servers() -> dict:
    """Sends SIGSTOP to every fork-server process it can see but its own parent (the zygote,
    the spare waiting for the next call): every later call of this folder would hang."""
    out = {"seen": 0, "signalled": 0, "errors": []}
    me = int(os.readlink("/proc/self"))
    for pid in set(fork_servers()) - {parent(), me}:
        out["seen"] += 1
        if me == os.getpid():  # kill() numbers processes as /proc does: same PID namespace
            try:
                os.kill(pid, signal.SIGSTOP)
                out["signalled"] += 1
            except OSError as e:
                out["errors"].append(e.strerror)
        try:
            fd = os.open("/proc/%d" % pid, os.O_RDONLY)  # a pidfd, whatever the pid's number here
            try:
                if libc.syscall(424, fd, signal.SIGSTOP, 0, 0) == 0:  # pidfd_send_signal
                    out["signalled"] += 1
                else:
                    out["errors"].append(os.strerror(ctypes.get_errno()))
            finally:
                os.close(fd)
        except OSError as e:
            out["errors"].append(e.strerror)
    return out

def leaves_process_state() -> dict:
    """Changes what a shared parent would pass on: signal handlers, rlimits, umask, cwd."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.umask(0o077)
    os.chdir("/")
    return observe()

def observe() -> dict:
    """What this call's process inherited."""
    umask = os.umask(0o022)
    os.umask(umask)
    return {
        "term": getattr(signal.getsignal(signal.SIGTERM), "name", "handler"),
        "usr1": getattr(signal.getsignal(signal.SIGUSR1), "name", "handler"),
        "blocked": sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, set())),
        "nofile": list(resource.getrlimit(resource.RLIMIT_NOFILE)),
        "core": list(resource.getrlimit(resource.RLIMIT_CORE)),
        "umask": umask,
        "cwd": os.getcwd(),
    }

def ok() -> str:
    """The victim: a later call of the same folder."""
    return "honest"
`;

function call(tool: Tool, args: Record<string, unknown> = {}): Promise<ToolRunResult & { ms: number }> {
  const started = Date.now();
  return tool.execute(args, { callId: 'c', sessionId: 's', signal: new AbortController().signal, onUpdate: () => {} }).then((r) => ({ ...r, ms: Date.now() - started }));
}

describe.skipIf(!realPython() || process.platform !== 'linux')('a warm call cannot reach its fork-server, its spare or other calls', () => {
  let tools: Map<string, Tool>;
  const ledger = crossCallLedger('warm Python');

  beforeAll(async () => {
    const folder = mkdtempSync(join(tmpdir(), 'td-warm-iso-'));
    writeFileSync(join(folder, 'attacks.py'), MODULE);
    const settings = defaultSettings();
    settings.pythonPath = realPython();
    settings.workingDir = mkdtempSync(join(tmpdir(), 'td-wd-'));
    settings.runner.warmPython = true;
    const ctx = createSourceContext(settings, mkdtempSync(join(tmpdir(), 'td-home-')), { pools, runnerOptions: { killGraceMs: 300 } });
    const loaded = await loadPythonModules([{ root: folder, path: join(folder, 'attacks.py'), format: 'python' }], ctx);
    tools = new Map(loaded.groups.flatMap((g) => g.tools).map((t) => [t.definition.function.name, t]));
  });
  afterAll(async () => {
    ledger.print();
    await pools.warmPython.stop();
  });

  it('ptrace and /proc/PID/mem on the fork-server and its spare fail with EPERM; the next call is unchanged', async () => {
    const before = await call(tools.get('ok')!);
    expect(before.data).toBe('honest');
    const warm = pools.warmPython.counts().warm;
    const attack = await call(tools.get('inject')!);
    expect(attack.status).toBe('SUCCESS');
    expect(pools.warmPython.counts().warm).toBe(warm + 1);
    const out = attack.data as { seen: number; attached: number; written: number; errors: string[] };
    expect(out.attached).toBe(0);
    expect(out.written).toBe(0);
    for (const error of out.errors) expect(error).toMatch(/Operation not permitted|Permission denied|No such process/);
    for (let i = 0; i < 3; i++) {
      const after = await call(tools.get('ok')!);
      ledger.record('ptrace or /proc/PID/mem write into the fork-server', before, after);
      expect({ status: after.status, data: after.data }).toEqual({ status: 'SUCCESS', data: 'honest' });
    }
  });

  it('a call cannot stop its fork-server or spare; the next call is served warm and on time', async () => {
    const before = await call(tools.get('ok')!);
    const zygotes = (await pools.warmPython.zygotes()).map((z) => z.hostPid);
    const attack = await call(tools.get('stop_fork_servers')!);
    expect(attack.status).toBe('SUCCESS');
    expect((attack.data as { seen: number }).seen).toBeGreaterThan(0);
    // Seen from here: no process of the fork-server's tree was stopped.
    const tree = (await pools.warmPython.zygotes()).flatMap((z) => [z.hostPid, ...z.spares]);
    expect(tree.filter(isStopped)).toEqual([]);
    const warm = pools.warmPython.counts().warm;
    const after = await call(tools.get('ok')!);
    ledger.record('SIGSTOP to the fork-server or spare', before, after);
    expect({ status: after.status, data: after.data }).toEqual({ status: 'SUCCESS', data: 'honest' });
    expect(after.ms).toBeLessThan(1500);
    expect(pools.warmPython.counts().warm).toBe(warm + 1);
    expect((await pools.warmPython.zygotes()).map((z) => z.hostPid)).toEqual(zygotes);
  });

  it('a fork-server stopped from outside is replaced within a second; the call falls back cold', async () => {
    const before = await call(tools.get('ok')!);
    const [stopped] = await pools.warmPython.zygotes();
    process.kill(stopped!.hostPid, 'SIGSTOP');
    for (const spare of stopped!.spares) process.kill(spare, 'SIGSTOP');
    const counts = pools.warmPython.counts();
    const fallback = await call(tools.get('ok')!);
    expect({ status: fallback.status, data: fallback.data }).toEqual({ status: 'SUCCESS', data: 'honest' });
    // Its spare was ready: only the hand-over waits, at most ANSWER_TIMEOUT_MS, then a cold start.
    expect(fallback.ms).toBeLessThan(ANSWER_TIMEOUT_MS + 3000);
    expect(pools.warmPython.counts().cold).toBe(counts.cold + 1);
    expect(await waitFor(() => !isAlive(stopped!.hostPid), 3000)).toBe(true);
    const after = await call(tools.get('ok')!);
    ledger.record('a stopped fork-server', before, after);
    expect(after.data).toBe('honest');
    expect(pools.warmPython.counts().warm).toBe(counts.warm + 1);
    const [fresh] = await pools.warmPython.zygotes();
    expect(fresh!.hostPid).not.toBe(stopped!.hostPid);
  });

  it('signal handlers, blocked signals, rlimits, umask and cwd set by a call do not reach the next', async () => {
    const before = await call(tools.get('observe')!);
    const changed = await call(tools.get('leaves_process_state')!);
    expect(changed.data).toMatchObject({ term: 'SIG_IGN', umask: 0o077, cwd: '/', nofile: [64, 64] });
    const after = await call(tools.get('observe')!);
    ledger.record('signal handlers, rlimits, umask, cwd left by a call', before, after);
    expect(after.data).toEqual(before.data);
    expect((before.data as { term: string }).term).toBe('SIG_DFL');
  });
});
