// Sandbox modes from the user's settings, through discovery and real script tools: the per-tool
// override is the user's, and a tool cannot opt itself out.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '../../shared/settings.ts';
import { sandboxStatus } from '../../electron/runtime/runner/sandbox.ts';
import { discoverTools } from '../../electron/runtime/sources/discovery/discover-tools.ts';
import { createSourceContext } from '../../electron/runtime/sources/source-context.ts';
import { ToolExecutor } from '../../electron/runtime/tools/tool-executor.ts';
import { realPython } from '../support/real-python.ts';
import { tempHomes } from '../support/temp-homes.ts';

const PLANTED = 'PLANTED-modes-4c2f';
const READER = 'import json, os\ntry:\n    print(json.dumps({"key": open(os.path.expanduser("~/.ssh/id_rsa")).read()}))\nexcept OSError as e:\n    print(json.dumps({"denied": e.strerror}))\n';

describe('sandbox modes (settings)', () => {
  const savedHome = process.env.HOME;
  const homes = tempHomes();
  let root: string;
  beforeAll(() => {
    const home = homes.make();
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh/id_rsa'), PLANTED);
    process.env.HOME = home;
    root = mkdtempSync(join(tmpdir(), 'td-'));
    for (const [name, extra] of [['reader_a', {}], ['reader_b', {}], ['opts_out', { sandbox: 'off', sandbox_mode: 'off' }]] as const) {
      mkdirSync(join(root, name));
      writeFileSync(join(root, name, 'tool.json'), JSON.stringify({ name, description: name, always_allow: true, parameters: { type: 'object', properties: {} }, ...extra }));
      writeFileSync(join(root, name, 'script.py'), READER);
    }
    // A module tool: only the commands its exec() starts are sandboxed.
    writeFileSync(join(root, 'exec_tool.ts'), 'export default (api: any) => ({ name: "exec_true", execute: async () => { const r = await api.exec("true"); return { content: [{ type: "text", text: "code=" + r.code }] }; } });\n');
  });
  afterAll(() => {
    process.env.HOME = savedHome;
    homes.removeAll();
  });

  async function executorFor(settings: Settings): Promise<ToolExecutor> {
    settings.pythonPath = realPython();
    settings.workingDir ??= mkdtempSync(join(tmpdir(), 'td-'));
    const loaded = await discoverTools([root], createSourceContext(settings, mkdtempSync(join(tmpdir(), 'td-'))));
    const ex = new ToolExecutor({ sessionId: 'modes', approve: async () => ({ decision: 'once' }) });
    for (const g of loaded.groups) {
      ex.registerToolGroup(g);
      ex.toggleGroupEnabled(g.name, true);
    }
    return ex;
  }

  it('sandboxes every tool in auto mode, and a tool that declares "sandbox": "off" is sandboxed all the same', async () => {
    const ex = await executorFor(defaultSettings());
    for (const name of ['script_reader_a', 'script_opts_out']) {
      const r = await ex.execute(name, {});
      expect(r.data, name).toEqual({ denied: 'No such file or directory' });
    }
  });

  it('turns the sandbox off for one tool when the user chose so (sandbox.perTool), and the status says so', async () => {
    const settings = defaultSettings();
    settings.sandbox.perTool = { script_reader_b: 'off' };
    const ex = await executorFor(settings);
    expect((await ex.execute('script_reader_a', {})).data).toEqual({ denied: 'No such file or directory' });
    const off = await ex.execute('script_reader_b', {});
    expect(off.data).toEqual({ key: PLANTED });
    expect(sandboxStatus(settings).warning).toBe('The sandbox is off for: script_reader_b.');
  });

  it("tells the user in the tool result why a working folder above the home is read-only; the home itself (the default) needs no word", async () => {
    const settings = defaultSettings();
    settings.workingDir = process.env.HOME!;
    const home = await (await executorFor(settings)).execute('script_reader_a', {});
    expect(home.data).toEqual({ denied: 'No such file or directory' });
    expect(home.warnings?.join('\n') ?? '').not.toMatch(/contains your home/);
    settings.workingDir = dirname(process.env.HOME!);
    const r = await (await executorFor(settings)).execute('script_reader_a', {});
    expect(r.data).toEqual({ denied: 'No such file or directory' });
    expect(r.warnings?.join('\n')).toMatch(/working folder .* contains your home, so it stays read-only in the sandbox \(turn on "allow home writes"/);
    settings.workingDir = join(process.env.HOME!, 'no-such-folder');
    const missing = await (await executorFor(settings)).execute('script_reader_a', {});
    expect(missing.warnings?.join('\n')).toMatch(/no-such-folder does not exist; the tool runs without one/);
    // A module tool's exec() has no warnings field: the notes come as that tool's logs.
    settings.workingDir = dirname(process.env.HOME!);
    const exec = await (await executorFor(settings)).execute('exec_true', {});
    expect(exec.finalText).toContain('code=0');
    expect(exec.logs).toMatch(/\[warn\] exec true: The working folder .* contains your home/);
  });
});
