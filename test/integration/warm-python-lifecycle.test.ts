// The warm fork-server's life: started on first use, one per interpreter and sandbox, stopped
// when idle, never used when the setting is off, and gone when the app dies however it dies.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWarmPythonRunner } from '../../electron/runtime/runner/warm-python/warm-python-runner.ts';
import { childPids, innermostPid } from '../../electron/runtime/runner/warm-python/host-pid.ts';
import type { RunSpec, SandboxSpec } from '../../electron/runtime/runner/types.ts';
import { helperDirs, helperScript } from '../../electron/runtime/sources/process/helper-scripts.ts';
import { loadPythonModules } from '../../electron/runtime/sources/python/index.ts';
import { createSourceContext, helperPools } from '../../electron/runtime/sources/source-context.ts';
import { defaultSettings } from '../../shared/settings.ts';
import { isAlive } from '../support/live-processes.ts';
import { realPython } from '../support/real-python.ts';

/** This file's own warm-Python fork-servers (and module hosts): nothing in the runtime is process-wide. */
const pools = helperPools();

function moduleFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'td-wl-'));
  writeFileSync(join(folder, 'm.py'), 'def f() -> int:\n    """f"""\n    return 7\n');
  return folder;
}

function spec(folder: string, sandbox: Partial<SandboxSpec> = {}): RunSpec {
  const file = join(folder, 'm.py');
  return {
    command: realPython()!,
    args: [helperScript.pythonRunner(), file, 'f', 'M'],
    cwd: folder,
    stdin: '{}',
    timeoutMs: 10_000,
    resultChannel: true,
    sandbox: { mode: 'auto', toolDir: folder, network: true, readOnlyPaths: helperDirs(), ...sandbox },
    python: { kind: 'module', file, function: 'f', marker: 'M' },
  };
}

async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe.skipIf(!realPython() || process.platform !== 'linux')('the warm Python fork-server over time', () => {
  afterEach(() => pools.warmPython.stop());

  it('starts on first use and stops after its idle time', async () => {
    const runner = createWarmPythonRunner({ pool: pools.warmPython, zygoteScript: helperScript.pythonZygote(), idleMs: 300 });
    const result = await runner(spec(moduleFolder()));
    expect(result.channel).toContain('"result": 7');
    const [zygote] = await pools.warmPython.zygotes();
    expect(zygote && isAlive(zygote.hostPid)).toBe(true);
    // The next call's process is forked ahead (a spare) and goes with its zygote.
    expect(zygote!.spares).toHaveLength(1);
    expect(await waitFor(async () => (await pools.warmPython.zygotes()).length === 0 && !isAlive(zygote!.hostPid) && !isAlive(zygote!.spares[0]!), 5000)).toBe(true);
  });

  it('runs each call in the spare forked ahead, and a fresh process when that spare was killed', async () => {
    const runner = createWarmPythonRunner({ pool: pools.warmPython, zygoteScript: helperScript.pythonZygote() });
    const folder = moduleFolder();
    const up = 'def up(pid):\n    s = open("/proc/%d/stat" % pid).read()\n    return int(s[s.rindex(")") + 2:].split()[1])\n';
    writeFileSync(join(folder, 'm.py'), `import os\n\n${up}\ndef f() -> list:\n    """f"""\n    return [os.getpid(), os.getppid(), up(up(int(os.readlink("/proc/self"))))]\n`);
    await runner(spec(folder));
    const [before] = await pools.warmPython.zygotes();
    const spare = before!.spares[0]!;
    const spareInside = innermostPid(spare);
    expect(spareInside).toBeGreaterThan(0);
    const served = await runner(spec(folder));
    // The tool runs in the spare's own PID namespace (pid 2 below its init, as in a cold
    // sandboxed run); in the sandbox's /proc its init is the spare's child.
    expect(JSON.parse(served.channel!).result).toEqual([2, 1, spareInside]);
    const [after] = await pools.warmPython.zygotes();
    expect(after!.spares).toHaveLength(1);
    expect(after!.spares[0]).not.toBe(spare);
    // Dead just before the call, before the app can have seen it end: the zygote answers that the
    // spare is gone, and the call still gets its result (run elsewhere).
    const killed = after!.spares[0]!;
    process.kill(killed, 'SIGKILL');
    expect(await waitFor(() => !isAlive(killed), 2000)).toBe(true);
    const again = await runner(spec(folder));
    expect(again.channel).toContain('"result"');
    // A spare killed while waiting is replaced: the next call is served warm.
    const [later] = await pools.warmPython.zygotes();
    process.kill(later!.spares[0]!, 'SIGKILL');
    expect(await waitFor(async () => { const [z] = await pools.warmPython.zygotes(); return !!z?.spares[0] && z.spares[0] !== later!.spares[0]; }, 5000)).toBe(true);
    const countsBefore = pools.warmPython.counts();
    const third = await runner(spec(folder));
    expect(third.channel).toContain('"result"');
    expect(pools.warmPython.counts().warm).toBe(countsBefore.warm + 1);
  });

  it('never lets a call read the secrets of another call running at the same time', async () => {
    const runner = createWarmPythonRunner({ pool: pools.warmPython, zygoteScript: helperScript.pythonZygote(), resolveSecrets: async () => ({ values: { API_TOKEN: 'sekrit-4711' }, missing: [] }) });
    const folder = moduleFolder();
    const holder = join(folder, 'holder.py');
    const snoop = join(folder, 'snoop.py');
    // The secret is in the environment of whatever the tool starts (here `sleep`).
    writeFileSync(holder, 'import subprocess\nsubprocess.run(["sleep", "1.5"])\nprint("held")\n');
    // What a hostile tool of the same folder would try: every environment it can read in /proc.
    writeFileSync(snoop, 'import os\nfound = []\nfor p in os.listdir("/proc"):\n    try:\n        if b"sekrit-4711" in open("/proc/%s/environ" % p, "rb").read():\n            found.append(p)\n    except OSError:\n        pass\nprint("found" if found else "not found")\n');
    // helperDirs: the fork-server's own script must be readable in the sandbox (a checkout under /tmp is not).
    const script = (file: string, secrets?: string[]): RunSpec => ({ command: realPython()!, args: [file], cwd: folder, stdin: '', timeoutMs: 10_000, ...(secrets ? { secrets } : {}), sandbox: { mode: 'auto', toolDir: folder, network: true, readOnlyPaths: helperDirs() }, python: { kind: 'script', file } });
    await runner(script(snoop)); // both zygotes warm, so the two calls below overlap for sure
    await runner(script(holder, ['API_TOKEN']));
    const warmBefore = pools.warmPython.counts().warm;
    const held = runner(script(holder, ['API_TOKEN']));
    await new Promise((r) => setTimeout(r, 500));
    expect((await runner(script(snoop))).stdout.trim()).toBe('not found');
    expect((await held).stdout.trim()).toBe('held');
    // Both calls were warm (a cold run has its own sandbox and would prove nothing).
    expect(pools.warmPython.counts().warm).toBe(warmBefore + 2);
    expect(await pools.warmPython.zygotes()).toHaveLength(2);
  });

  it('gives a call without a result channel no fd 3, as a cold run has none', async () => {
    const runner = createWarmPythonRunner({ pool: pools.warmPython, zygoteScript: helperScript.pythonZygote() });
    const folder = moduleFolder();
    const script = join(folder, 'script.py');
    writeFileSync(script, 'import os\ntry:\n    os.fstat(3)\n    print("fd3 open")\nexcept OSError:\n    print("fd3 closed")\n');
    const run = (): Promise<{ stdout: string }> =>
      runner({ command: realPython()!, args: [script], cwd: folder, stdin: '', timeoutMs: 10_000, sandbox: { mode: 'auto', toolDir: folder, network: true, readOnlyPaths: helperDirs() }, python: { kind: 'script', file: script } });
    const before = pools.warmPython.counts().warm;
    expect((await run()).stdout.trim()).toBe('fd3 closed');
    expect((await run()).stdout.trim()).toBe('fd3 closed');
    expect(pools.warmPython.counts().warm).toBe(before + 2);
  });

  it('serves calls with the same sandbox from one zygote, and a changed sandbox from another', async () => {
    const runner = createWarmPythonRunner({ pool: pools.warmPython, zygoteScript: helperScript.pythonZygote() });
    const folder = moduleFolder();
    await runner(spec(folder));
    await runner(spec(folder));
    expect((await pools.warmPython.zygotes()).length).toBe(1);
    const offline = await runner(spec(folder, { network: false }));
    expect(offline.channel).toContain('"result": 7');
    expect((await pools.warmPython.zygotes()).length).toBe(2);
  });

  it('is not used when runner.warmPython is off', async () => {
    const settings = defaultSettings();
    settings.pythonPath = realPython();
    settings.runner.warmPython = false;
    const folder = moduleFolder();
    const ctx = createSourceContext(settings, mkdtempSync(join(tmpdir(), 'td-home-')), { pools });
    const tool = (await loadPythonModules([{ root: folder, path: join(folder, 'm.py'), format: 'python' }], ctx)).groups[0]!.tools[0]!;
    const before = pools.warmPython.counts();
    const r = await tool.execute({}, { callId: 'c', sessionId: 's', signal: new AbortController().signal, onUpdate: () => {} });
    expect(r).toMatchObject({ status: 'SUCCESS', data: 7 });
    expect(pools.warmPython.counts()).toEqual(before);
    expect(await pools.warmPython.zygotes()).toEqual([]);
  });

  it('dies with the app, even when the app is killed', async () => {
    const folder = moduleFolder();
    const parent = spawn(join(process.cwd(), 'node_modules/.bin/tsx'), ['test/support/warm-python-parent.ts', realPython()!, folder], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve) => {
      let text = '';
      parent.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) resolve(text.split('\n')[0]!);
      });
    });
    const { zygote, channel } = JSON.parse(line) as { zygote: number; channel: string };
    expect(channel).toContain('"result": 7');
    expect(isAlive(zygote)).toBe(true);
    // tsx runs the script in a child node: kill that whole tree abruptly.
    const tree = childPids(parent.pid!);
    process.kill(parent.pid!, 'SIGKILL');
    for (const p of tree) process.kill(p, 'SIGKILL');
    expect(await waitFor(() => !isAlive(zygote), 5000)).toBe(true);
  });
});
