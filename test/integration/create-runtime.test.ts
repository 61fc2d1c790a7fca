// The composition root: parts built on first use and once, only those asked for; the tool roots
// from the settings or an override; the host over the same parts; one close for everything.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime, webOnly } from '../../electron/runtime/create-runtime.ts';
import { newTool } from '../../electron/runtime/host/services/scaffold-tool.ts';
import { SecretStore, sessionBackend } from '../../electron/runtime/store/secret-store.ts';
import type { ToolHost } from '../../electron/runtime/sources/module/tool-host.ts';
import { isAlive } from '../support/live-processes.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'td-'));
const secrets = () => new SecretStore({ keyring: sessionBackend() });

describe('createRuntime', () => {
  it('without tools: settings and sessions only; asking for tools is a clear error', async () => {
    const home = tmp();
    const runtime = await createRuntime({ home, secrets: secrets(), tools: false });
    try {
      expect(runtime.paths.sessionsDir).toBe(join(home, 'sessions'));
      const sessions = await runtime.sessions();
      expect(await runtime.sessions()).toBe(sessions);
      expect(sessions.create({ title: 'plain' }).tools.listGroups().map((g) => g.name)).toEqual(['vars']);
      await expect(runtime.tools()).rejects.toThrow(/created without tools/);
    } finally {
      await runtime.close();
    }
  });

  it('loads the tools once from the given roots, into sessions, executors and the host alike', async () => {
    const home = tmp();
    const root = join(tmp(), 'tools');
    await newTool(root, 'script-py', 'hello');
    const runtime = await createRuntime({ home, secrets: secrets(), tools: { roots: [root] } });
    try {
      expect(runtime.toolRoots()).toEqual([{ path: root, kind: 'user' }]);
      const tools = await runtime.tools();
      expect(await runtime.tools()).toBe(tools);
      expect(tools.source.groups().flatMap((g) => g.tools.map((t) => t.definition.function.name))).toEqual(['script_hello']);

      const toolSession = await runtime.toolSession({ sessionId: 'check' });
      const group = toolSession.listGroups().find((g) => g.tools.some((t) => t.name === 'script_hello'))!;
      expect(group.enabled).toBe(false);
      runtime.settings.set('groupDefaults', { [group.name]: true });
      expect(toolSession.listGroups().find((g) => g.name === group.name)!.enabled).toBe(true);
      toolSession.close();

      const session = (await runtime.sessions()).create();
      expect(session.tools.hasTool('script_hello')).toBe(true);
      const host = await runtime.host({ browserMode: true, version: 't' });
      expect(await runtime.host({ browserMode: false })).toBe(host);
      expect((await host.handlers.listTools({})).groups.find((g) => g.name === group.name)).toMatchObject({ enabled: true });
      expect(await host.handlers.appInfo({})).toMatchObject({ version: 't', browserMode: true, home });

      // Roots given by the caller (--root) stay: a settings change of toolRoots does not replace them.
      runtime.settings.set('toolRoots', [join(tmp(), 'other')]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(tools.roots()).toEqual([{ path: root, kind: 'user' }]);
    } finally {
      await runtime.close();
      await runtime.close(); // idempotent
    }
  });

  it('owns the long-lived tool processes: its close ends the warm Python fork-server and the module tool host', async () => {
    const home = tmp();
    const root = tmp();
    writeFileSync(join(root, 'py_tool.py'), 'def py_ok() -> str:\n    """ok"""\n    return "py"\n');
    writeFileSync(join(root, 'ts_tool.ts'), 'export default () => ({ name: "ts_ok", execute: async () => "ts" });\n');
    const runtime = await createRuntime({ home, secrets: secrets(), tools: { roots: [root] } });
    let pids: number[] = [];
    let hostsBefore: ToolHost[] = [];
    const warmPythonZygotes = async () => (await runtime.helpers()?.warmPython.zygotes()) ?? [];
    const hostsOfAll = () => runtime.helpers()?.moduleHosts.all() ?? [];
    try {
      runtime.settings.set('runner', { warmPython: true });
      const session = await runtime.toolSession({ sessionId: 'owned', approve: async () => ({ decision: 'once' }) });
      runtime.settings.set('groupDefaults', Object.fromEntries(session.listGroups().map((g) => [g.name, true])));
      const names = session.definitions().map((d) => d.function.name);
      for (const name of names.filter((n) => /py_ok|ts_ok/.test(n))) expect((await session.execute(name, {})).status).toBe('SUCCESS');
      session.close();
      const zygotes = await warmPythonZygotes();
      hostsBefore = hostsOfAll();
      pids = zygotes.map((z) => z.hostPid);
      expect(zygotes.length).toBeGreaterThan(0);
      expect((await Promise.all(hostsBefore.map((h) => h.pid()))).filter((p) => p !== null).length).toBeGreaterThan(0);
    } finally {
      await runtime.close();
    }
    expect(await warmPythonZygotes()).toEqual([]);
    expect(hostsOfAll()).toEqual([]);
    expect(await Promise.all(hostsBefore.map((h) => h.pid()))).toEqual(hostsBefore.map(() => null));
    const deadline = Date.now() + 3000;
    while (pids.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it("two runtimes in one process: closing one leaves the other's helpers running, and its Python calls warm", async () => {
    if (process.platform !== 'linux') return; // warm Python serves Linux only
    const root = tmp();
    writeFileSync(join(root, 'py_tool.py'), 'import os\n\ndef py_pid() -> str:\n    """pid"""\n    return str(os.getppid())\n');
    writeFileSync(join(root, 'ts_tool.ts'), 'export default () => ({ name: "ts_pid", execute: async () => String(process.pid) });\n');
    const open = async () => {
      const runtime = await createRuntime({ home: tmp(), secrets: secrets(), tools: { roots: [root] } });
      runtime.settings.set('runner', { warmPython: true });
      const session = await runtime.toolSession({ sessionId: 'two', approve: async () => ({ decision: 'once' }) });
      runtime.settings.set('groupDefaults', Object.fromEntries(session.listGroups().map((g) => [g.name, true])));
      const call = async (pattern: RegExp) => {
        const name = session.definitions().map((d) => d.function.name).find((n) => pattern.test(n))!;
        const result = await session.execute(name, {});
        expect(result.status).toBe('SUCCESS');
        return result.finalText;
      };
      return { runtime, call };
    };
    const a = await open();
    const b = await open();
    try {
      await a.call(/py_pid/);
      await b.call(/py_pid/);
      const hostOfB = await b.call(/ts_pid/);
      await a.call(/ts_pid/);
      const warm = () => b.runtime.helpers()!.warmPython.counts().warm;
      const zygotesOfB = (await b.runtime.helpers()!.warmPython.zygotes()).map((z) => z.hostPid);
      expect(zygotesOfB).toHaveLength(1);
      await a.runtime.close();
      // B's fork-server is the same process, still alive, and B's next call is served by it, warm.
      const before = warm();
      await b.call(/py_pid/);
      expect(warm()).toBe(before + 1);
      expect((await b.runtime.helpers()!.warmPython.zygotes()).map((z) => z.hostPid)).toEqual(zygotesOfB);
      expect(zygotesOfB.filter(isAlive)).toEqual(zygotesOfB);
      // B's module tool host too: the same process answers.
      expect(await b.call(/ts_pid/)).toBe(hostOfB);
    } finally {
      await a.runtime.close();
      await b.runtime.close();
    }
  }, 60_000);

  it('follows the settings roots when none are given, reloading on a change', async () => {
    const home = tmp();
    const first = join(tmp(), 'first');
    const second = join(tmp(), 'second');
    await newTool(first, 'script-py', 'one');
    await newTool(second, 'script-py', 'two');
    const runtime = await createRuntime({ home, secrets: secrets(), tools: { cwd: home } });
    try {
      runtime.settings.set('toolRoots', [first]);
      // Set before the tools load: the first load reads it.
      const tools = await runtime.tools();
      const names = () => tools.source.groups().flatMap((g) => g.tools.map((t) => t.definition.function.name));
      expect(names()).toEqual(['script_one']);
      const changed = new Promise((resolve) => tools.source.onChanged(resolve));
      runtime.settings.set('toolRoots', [second]);
      await changed;
      expect(names()).toEqual(['script_two']);
    } finally {
      await runtime.close();
    }
  });

  it('mcp(): the tools\' own manager without `only`; with `only`, one of those servers alone, closed with the runtime', async () => {
    const home = tmp();
    const servers = { a: { command: process.execPath, args: ['-e', ''] }, b: { command: process.execPath, args: ['-e', ''] } };
    const names = (manager: { states(): Array<{ name: string }> }) => manager.states().map((s) => s.name);
    const withTools = await createRuntime({ home, secrets: secrets(), tools: { cwd: home, roots: [tmp()] } });
    try {
      withTools.settings.set('mcpServers', servers as never);
      const own = (await withTools.tools()).mcp!;
      expect(await withTools.mcp()).toBe(own);
      const onlyA = await withTools.mcp({ only: ['a'] });
      expect(onlyA).not.toBe(own);
      expect(names(onlyA)).toEqual(['a']);
      // Switched off (no group switch): never started, by either manager.
      await onlyA.startAll();
      expect(onlyA.states()[0]!.status).toBe('stopped');
    } finally {
      await withTools.close();
    }
    const noTools = await createRuntime({ home, secrets: secrets(), tools: false });
    const all = await noTools.mcp();
    expect(names(all)).toEqual(['a', 'b']);
    await noTools.close();
    expect(names(all)).toEqual([]);
  });
});

describe('webOnly (MCP sign-in pages)', () => {
  it('hands only http(s) URLs to the browser', async () => {
    const opened: string[] = [];
    const open = webOnly(async (url) => (opened.push(url), true));
    expect(await open('https://auth.example.com/authorize?x=1')).toBe(true);
    expect(await open('http://127.0.0.1:5555/cb')).toBe(true);
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'ms-settings:', 'not a url', 'smb://host/share']) expect(await open(bad)).toBe(false);
    expect(opened).toEqual(['https://auth.example.com/authorize?x=1', 'http://127.0.0.1:5555/cb']);
  });
});

describe('appInfo', () => {
  it("names the other projects' folders where they are on this machine (project ones under the working folder)", async () => {
    const home = tmp();
    const project = tmp();
    const runtime = await createRuntime({ home, secrets: secrets(), tools: { cwd: project } });
    try {
      runtime.settings.set('workingDir', project);
      const host = await runtime.host({ browserMode: true });
      const info = await host.handlers.appInfo({});
      expect(info.wellKnownFolders?.agenvoyProject).toBe(join(project, '.config', 'agenvoy', 'tools', 'script'));
      expect(info.wellKnownFolders?.ompProject).toBe(join(project, '.omp', 'tools'));
      expect(info.wellKnownFolders?.ompHome).toBe(join(homedir(), '.omp', 'agent', 'tools'));
    } finally {
      await runtime.close();
    }
  });
});
