// One deadline owner: a tool of every format that outlives its timeout ends, every time, with
// exactly its format's "timed out after N s — raise the tool's timeout in …" message (never the
// runner's or the executor's by chance), and none of its processes is left when the call returns.
// Real tools through discovery, the ToolExecutor and the real runner.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../shared/settings.ts';
import { discoverTools } from '../../electron/runtime/sources/discovery/discover-tools.ts';
import { createSourceContext } from '../../electron/runtime/sources/source-context.ts';
import { ToolExecutor } from '../../electron/runtime/tools/tool-executor.ts';
import { waitNoneWithMarker } from '../support/live-processes.ts';
import { realPython } from '../support/real-python.ts';

const REPEATS = 4;
const marker = `tdtimeout${process.pid}x${Date.now()}`;
/** A shell that ignores SIGTERM and carries the marker in its command line: it must still be gone. */
const stubborn = (tag: string) => `trap '' TERM; while :; do sleep 0.1; done; : ${marker}-${tag}`;
const pyNap = (tag: string) => `import signal, subprocess, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nsubprocess.Popen(["sh", "-c", ${JSON.stringify(stubborn(tag))}])\ntime.sleep(30)\n`;
const SETTINGS_PLACE = 'Settings → Limits → Tool timeout (limits.toolTimeoutMs)';

describe('one deadline: every format times out with its own message, and nothing outlives the call', () => {
  let root: string;
  let ex: ToolExecutor;
  const savedPath = process.env.PATH;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'td-'));
    // Python module: one function with its own timeout, one under the settings' limit.
    writeFileSync(join(root, 'naps.py'), [
      'import signal, subprocess, time',
      'def nap_own() -> str:',
      '    """Sleeps past its own timeout."""',
      `    ${pyNap('py-own').trimEnd().split('\n').slice(1).join('\n    ')}`,
      '    return "woke"',
      'nap_own.timeout = 1',
      'def nap_default() -> str:',
      '    """Sleeps past the settings limit."""',
      `    ${pyNap('py-default').trimEnd().split('\n').slice(1).join('\n    ')}`,
      '    return "woke"',
      '',
    ].join('\n'));
    // PowerShell cannot be installed here: a stand-in `pwsh` on PATH hangs as a slow function would.
    const bin = mkdtempSync(join(tmpdir(), 'td-'));
    writeFileSync(join(bin, 'pwsh'), `#!/bin/sh\ntrap '' TERM\nsh -c ${JSON.stringify(stubborn('ps'))} &\nwait\n`);
    chmodSync(join(bin, 'pwsh'), 0o755);
    writeFileSync(join(root, 'ps_naps.ps1'), '# TOOL_CONFIG: {"timeout": 1}\n<#\n.SYNOPSIS\nSleeps past its timeout.\n#>\nfunction Get-Nap {\n    param()\n    Start-Sleep -Seconds 30\n}\n');
    // Script folder (seed 001).
    mkdirSync(join(root, 'nap'));
    writeFileSync(join(root, 'nap', 'tool.json'), JSON.stringify({ name: 'nap', description: 'naps', always_allow: true, timeout: 1, parameters: { type: 'object', properties: {} } }));
    writeFileSync(join(root, 'nap', 'script.py'), pyNap('script'));
    // Three-layer (seed 004).
    mkdirSync(join(root, 'nap3'));
    writeFileSync(join(root, 'nap3', 'definition.json'), JSON.stringify({ id: 'nap3', description: 'naps', timeout: 1, parameters: { type: 'object', properties: {} } }));
    writeFileSync(join(root, 'nap3', 'execution.py'), pyNap('three'));
    // Module tool (seed 003): no timeout of its own, so the settings' limit, and a process it started.
    writeFileSync(join(root, 'mod_nap.mjs'), `export default (api) => ({
  name: 'mod_nap', description: 'naps', parameters: api.typebox.Type.Object({}),
  async execute(_id, _params, _onUpdate, _ctx, signal) {
    await api.exec('sh', ['-c', ${JSON.stringify(stubborn('module'))}], { signal });
    return { content: [{ type: 'text', text: 'woke' }] };
  },
});\n`);

    const settings = defaultSettings();
    settings.pythonPath = realPython();
    settings.workingDir = mkdtempSync(join(tmpdir(), 'td-'));
    settings.sandbox.mode = 'off';
    settings.limits.toolTimeoutMs = 1000;
    const loaded = await discoverTools([root], createSourceContext(settings, mkdtempSync(join(tmpdir(), 'td-')), { runnerOptions: { killGraceMs: 300 } }));
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // Only now: listing never needs pwsh (the static parser reads the file), running does.
    process.env.PATH = `${bin}${delimiter}${savedPath}`;
    ex = new ToolExecutor({ sessionId: 'timeouts', approve: async () => ({ decision: 'once' }), toolTimeoutMs: settings.limits.toolTimeoutMs });
    for (const g of loaded.groups) {
      ex.registerToolGroup(g);
      ex.toggleGroupEnabled(g.name, true);
    }
  }, 30_000);
  afterAll(() => {
    process.env.PATH = savedPath;
  });

  it('sees a live marked process (the check below is not vacuous)', async () => {
    const child = spawn('sh', ['-c', stubborn('control')], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 100));
    expect(await waitNoneWithMarker(`${marker}-control`, 0)).toEqual([child.pid]);
    child.kill('SIGKILL');
    expect(await waitNoneWithMarker(`${marker}-control`, 1000)).toEqual([]);
  });

  const cases: { format: string; tool: string; tag: string; message: () => string }[] = [
    { format: 'Python, own fn.timeout', tool: 'nap_own', tag: 'py-own', message: () => `Timed out after 1 s and was stopped — raise the tool's timeout in ${join(root, 'naps.py')} (\`nap_own.timeout = seconds\`)` },
    { format: 'Python, settings limit', tool: 'nap_default', tag: 'py-default', message: () => `Timed out after 1 s and was stopped — raise the tool's timeout in ${join(root, 'naps.py')} (\`nap_default.timeout = seconds\`) or ${SETTINGS_PLACE}` },
    { format: 'PowerShell', tool: 'Get-Nap', tag: 'ps', message: () => `Timed out after 1 s and was stopped — raise the tool's timeout in ${join(root, 'ps_naps.ps1')} (\`# TOOL_CONFIG: {"timeout": seconds}\`)` },
    { format: 'script folder', tool: 'script_nap', tag: 'script', message: () => `script error: timed out after 1 s and was stopped — raise the tool's timeout in ${join(root, 'nap', 'tool.json')} ("timeout": seconds, at most 300)` },
    { format: 'three-layer', tool: 'nap3', tag: 'three', message: () => `timeout: execution.py timed out after 1 s and was stopped — raise the tool's timeout in ${join(root, 'nap3', 'definition.json')} ("timeout": seconds, at most 600)` },
    { format: 'module', tool: 'mod_nap', tag: 'module', message: () => `mod_nap timed out after 1 s and was stopped — raise the tool's timeout in ${SETTINGS_PLACE}.` },
  ];

  for (const c of cases) {
    it(`${c.format}: exactly the format's message, ${REPEATS} times out of ${REPEATS}, no process left`, async () => {
      for (let i = 0; i < REPEATS; i++) {
        const r = await ex.execute(c.tool, {});
        expect({ status: r.status, error: r.error, finalText: r.finalText }).toEqual({ status: 'ERROR', error: c.message(), finalText: `Error: ${c.message()}` });
        expect(r.durationMs!).toBeGreaterThanOrEqual(1000);
        expect(r.durationMs!).toBeLessThan(3000);
        // Gone when the result is given (zombies count as gone; a moment for the kernel to mark them).
        expect(await waitNoneWithMarker(`${marker}-${c.tag}`, 300)).toEqual([]);
      }
    }, 30_000);
  }
});
