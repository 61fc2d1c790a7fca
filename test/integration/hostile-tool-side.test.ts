// What a broken or malicious tool can do once it runs: ignore SIGTERM, fork 200 children, write
// 1 GB, print invalid UTF-8, read stdin forever, delete its own folder, read ~/.ssh/id_rsa.
// Real script tools (seed 001) through discovery, the ToolExecutor and the sandboxed runner:
// each ends killed, capped or denied with a clear result, and nothing outlives the call.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../shared/settings.ts';
import type { ToolExecuteResult } from '../../shared/tools.ts';
import { discoverTools } from '../../electron/runtime/sources/discovery/discover-tools.ts';
import { createSourceContext } from '../../electron/runtime/sources/source-context.ts';
import { ToolExecutor } from '../../electron/runtime/tools/tool-executor.ts';
import { waitNoneWithMarker } from '../support/live-processes.ts';
import { realPython } from '../support/real-python.ts';
import { tempHomes } from '../support/temp-homes.ts';

const PLANTED = 'PLANTED-id_rsa-5d1e0b77';
const marker = `tdhostile${process.pid}x${Date.now()}`;
const tools: Record<string, { timeout?: number; py: string }> = {
  ignores_sigterm: { timeout: 1, py: 'import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nwhile True:\n    time.sleep(0.05)\n' },
  forks_200: {
    py: `import subprocess, time\nps = [subprocess.Popen(["sh", "-c", "sleep 30; : ${marker}"]) for _ in range(200)]\ntime.sleep(30)\n`,
  },
  writes_1gb: { py: 'import sys\nchunk = b"x" * (1 << 20)\nfor _ in range(1024):\n    sys.stdout.buffer.write(chunk)\n' },
  invalid_utf8: { py: 'import sys\nsys.stdout.buffer.write(b\'{"ok": "caf\\xe9 \\xff\\xfe end"}\')\n' },
  stdin_forever: { timeout: 1, py: 'import sys\nwhile True:\n    sys.stdin.read()\n' },
  deletes_itself: { py: 'import json, os, shutil\nd = os.path.dirname(os.path.abspath(__file__))\ntry:\n    shutil.rmtree(d)\n    print(json.dumps({"deleted": not os.path.exists(d)}))\nexcept OSError as e:\n    print(json.dumps({"deleted": False, "error": e.strerror}))\n' },
  reads_ssh_key: { py: 'import json, os\ntry:\n    print(json.dumps({"key": open(os.path.expanduser("~/.ssh/id_rsa")).read()}))\nexcept OSError as e:\n    print(json.dumps({"denied": e.strerror}))\n' },
  leaves_background_child: { py: `import subprocess\nsubprocess.Popen(["sh", "-c", "sleep 30; : ${marker}"], start_new_session=True)\nprint("done")\n` },
};

describe('hostile tool processes (sandboxed script tools)', () => {
  let ex: ToolExecutor;
  let root: string;
  const savedHome = process.env.HOME;
  const homes = tempHomes();
  const call = (name: string, args: Record<string, unknown> = {}): Promise<ToolExecuteResult> => ex.execute(`script_${name}`, args);
  const timedOut = (name: string) => `script error: timed out after 1 s and was stopped — raise the tool's timeout in ${join(root, name, 'tool.json')} ("timeout": seconds, at most 300)`;
  const text = (r: ToolExecuteResult) => [r.finalText, r.error, r.logs, JSON.stringify(r.data ?? ''), ...(r.warnings ?? [])].join('\n');

  beforeAll(async () => {
    // A temp HOME outside /tmp with a planted key: hiding it is the sandbox mask's job.
    const home = homes.make();
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh/id_rsa'), PLANTED);
    process.env.HOME = home;
    root = mkdtempSync(join(tmpdir(), 'td-'));
    for (const [name, t] of Object.entries(tools)) {
      mkdirSync(join(root, name));
      writeFileSync(join(root, name, 'tool.json'), JSON.stringify({ name, description: name, always_allow: true, parameters: { type: 'object', properties: {} }, ...(t.timeout ? { timeout: t.timeout } : {}) }));
      writeFileSync(join(root, name, 'script.py'), t.py);
    }
    const settings = defaultSettings();
    settings.pythonPath = realPython();
    settings.workingDir = mkdtempSync(join(tmpdir(), 'td-'));
    settings.limits.maxProcesses = 64;
    const loaded = await discoverTools([root], createSourceContext(settings, mkdtempSync(join(tmpdir(), 'td-')), { runnerOptions: { killGraceMs: 300 } }));
    ex = new ToolExecutor({ sessionId: 'hostile-tools', approve: async () => ({ decision: 'once' }) });
    for (const g of loaded.groups) {
      ex.registerToolGroup(g);
      ex.toggleGroupEnabled(g.name, true);
    }
  });
  afterAll(() => {
    process.env.HOME = savedHome;
    homes.removeAll();
  });

  it('kills a tool that ignores SIGTERM at its timeout', async () => {
    const r = await call('ignores_sigterm');
    expect(r.status).toBe('ERROR');
    // The executor owns the deadline: always the script format's message, never the runner's by chance.
    expect(r.error).toBe(timedOut('ignores_sigterm'));
    expect(r.finalText).toBe(`Error: ${timedOut('ignores_sigterm')}`);
    expect(r.durationMs!).toBeLessThan(4000);
  });

  it('stops a tool that forks 200 children at the process bound, leaving none behind', async () => {
    const r = await call('forks_200');
    console.log(`forks 200: ${r.status} in ${Math.round(r.durationMs!)} ms — ${r.error?.slice(0, 160)}`);
    expect(r.status).toBe('ERROR');
    expect(text(r)).toMatch(/limited to 64/);
    expect(r.durationMs!).toBeLessThan(10_000);
    expect(await waitNoneWithMarker(marker)).toEqual([]);
  });

  it('caps 1 GB of output and stops the tool quickly, with bounded memory', async () => {
    const before = process.memoryUsage().rss;
    const r = await call('writes_1gb');
    const grown = process.memoryUsage().rss - before;
    console.log(`1 GB writer: ${r.status} in ${Math.round(r.durationMs!)} ms, rss grew ${Math.round(grown / 1024 / 1024)} MB; ${r.warnings?.join(' ')}`);
    expect(text(r)).toMatch(/cap/);
    expect(r.durationMs!).toBeLessThan(10_000);
    expect(grown).toBeLessThan(200 * 1024 * 1024);
    expect(r.finalText!.length).toBeLessThan(20_000);
  });

  it('turns invalid UTF-8 into replacement characters', async () => {
    const r = await call('invalid_utf8');
    expect(r.status).not.toBe('NOT_FOUND');
    expect(text(r)).toContain('\ufffd');
  });

  it('kills a tool that reads stdin forever at its timeout', async () => {
    const r = await call('stdin_forever');
    expect(r.status).toBe('ERROR');
    expect(text(r)).toMatch(/timed out/);
    expect(r.error).toBe(timedOut('stdin_forever'));
  });

  it('cannot delete its own (read-only) folder', async () => {
    const r = await call('deletes_itself');
    expect(r.status).toBe('SUCCESS');
    expect(r.data).toMatchObject({ deleted: false, error: 'Read-only file system' });
    expect(existsSync(join(root, 'deletes_itself', 'script.py'))).toBe(true);
    // Discovery still works afterwards, and the tool is still there.
    expect((await call('deletes_itself')).status).toBe('SUCCESS');
  });

  it('is denied ~/.ssh/id_rsa, and nothing of it leaks', async () => {
    const r = await call('reads_ssh_key');
    expect(r.status).toBe('SUCCESS');
    expect(r.data).toEqual({ denied: 'No such file or directory' });
    expect(text(r)).not.toContain(PLANTED);
  });

  it('takes down a background child that started its own session when the call ends', async () => {
    const r = await call('leaves_background_child');
    expect(r.status).toBe('SUCCESS');
    expect(await waitNoneWithMarker(marker)).toEqual([]);
  });
});
