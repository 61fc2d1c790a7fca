// The composition root: parts built on first use and once, only those asked for; the tool roots
// from the settings or an override; the host over the same parts; one close for everything.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime, webOnly } from '../../electron/runtime/create-runtime.ts';
import { newTool } from '../../electron/runtime/host/scaffold-tool.ts';
import { SecretStore, sessionBackend } from '../../electron/runtime/store/secret-store.ts';
import { warmPythonZygotes } from '../../electron/runtime/runner/warm-python/warm-python-runner.ts';
import { allHosts as hostsOfAll } from '../../electron/runtime/sources/module/host-pool.ts';
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
      expect(sessions.create({ title: 'plain' }).executor.listGroups().map((g) => g.name)).toEqual(['vars']);
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

      const toolSession = tools.session({ sessionId: 'check' });
      const { executor } = toolSession;
      const group = executor.listGroups().find((g) => g.tools.some((t) => t.name === 'script_hello'))!;
      expect(group.enabled).toBe(false);
      runtime.settings.set('groupDefaults', { [group.name]: true });
      expect(executor.listGroups().find((g) => g.name === group.name)!.enabled).toBe(true);
      toolSession.close();

      const session = (await runtime.sessions()).create();
      expect(session.executor.getTool('script_hello')).toBeDefined();
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
    let hostsBefore: ReturnType<typeof hostsOfAll> = [];
    try {
      runtime.settings.set('runner', { warmPython: true });
      const tools = await runtime.tools();
      const session = tools.session({ sessionId: 'owned', approve: async () => ({ decision: 'once' }) });
      const { executor } = session;
      for (const g of executor.listGroups()) executor.toggleGroupEnabled(g.name, true);
      const names = executor.getEnabledToolDefinitions().map((d) => d.function.name);
      for (const name of names.filter((n) => /py_ok|ts_ok/.test(n))) expect((await executor.execute(name, {})).status).toBe('SUCCESS');
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
