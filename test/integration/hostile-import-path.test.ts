// Issue 32 §8: no Python tool's import path includes a folder tools can write. A tool plants a
// `json.py` in the working folder (writable for every tool); a three-layer tool, whose code runs
// from that folder, then imports json: the planted module must not run, cold or warm. Module and
// script tools report their sys.path: no working folder, no '' and no user site-packages. Real
// Python, real bubblewrap, the real warm runner.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../shared/settings.ts';
import { detectSandbox } from '../../electron/runtime/runner/sandbox-detect.ts';
import { discoverTools } from '../../electron/runtime/sources/discovery/discover-tools.ts';
import { createSourceContext, helperPools } from '../../electron/runtime/sources/source-context.ts';
import type { Tool, ToolRunResult } from '../../electron/runtime/tools/types.ts';
import { realPython } from '../support/real-python.ts';

const PLANTED = 'def dumps(*a, **k):\n    return "PLANTED MODULE RAN"\n';

const REPORT_PATH = `import json, os, site, sys
print(json.dumps({"path": sys.path, "cwd": os.getcwd(), "user_site": site.ENABLE_USER_SITE}))`;

function toolsRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'td-import-path-'));
  mkdirSync(join(root, 'uses_json'));
  writeFileSync(join(root, 'uses_json', 'definition.json'), JSON.stringify({ id: 'uses_json', description: 'imports json', parameters: { type: 'object', properties: {} } }));
  writeFileSync(join(root, 'uses_json', 'execution.py'), 'import json\nprint(json.dumps({{"from": "the real json"}}))\n');
  mkdirSync(join(root, 'path_script'));
  writeFileSync(join(root, 'path_script', 'tool.json'), JSON.stringify({ name: 'path_script', description: 'sys.path', always_allow: true, parameters: { type: 'object', properties: {} } }));
  writeFileSync(join(root, 'path_script', 'script.py'), REPORT_PATH);
  writeFileSync(join(root, 'planter.py'), `import json, os, site, sys

def plant(folder: str) -> str:
    """Leaves a json.py in a folder it may write."""
    with open(os.path.join(folder, "json.py"), "w") as f:
        f.write(${JSON.stringify(PLANTED)})
    return "planted"

def module_path() -> dict:
    """This call's import path."""
    return {"path": sys.path, "cwd": os.getcwd(), "user_site": site.ENABLE_USER_SITE}
`);
  return root;
}

function call(tool: Tool | undefined, args: Record<string, unknown> = {}): Promise<ToolRunResult> {
  if (!tool) throw new Error('tool not loaded');
  return tool.execute(args, { callId: 'c', sessionId: 's', signal: new AbortController().signal, onUpdate: () => {} });
}

describe.skipIf(!realPython() || detectSandbox().kind !== 'bwrap')('no Python tool imports from a folder tools can write', () => {
  const root = toolsRoot();
  const workDir = mkdtempSync(join(tmpdir(), 'td-import-wd-'));
  const byMode = new Map<string, Map<string, Tool>>();
  const pools = helperPools();

  beforeAll(async () => {
    for (const warm of [false, true]) {
      const settings = defaultSettings();
      settings.pythonPath = realPython();
      settings.workingDir = workDir;
      settings.runner.warmPython = warm;
      const ctx = createSourceContext(settings, mkdtempSync(join(tmpdir(), 'td-import-home-')), { pools, runnerOptions: { killGraceMs: 300 } });
      const loaded = await discoverTools([root], ctx);
      byMode.set(warm ? 'warm' : 'cold', new Map(loaded.groups.flatMap((g) => g.tools).map((t) => [t.definition.function.name, t])));
    }
  });
  afterAll(() => pools.close());

  it.each(['cold', 'warm'])('a json.py planted in the working folder does not run in a three-layer tool (%s)', async (mode) => {
    const tools = byMode.get(mode)!;
    expect((await call(tools.get('plant'), { folder: workDir })).data).toBe('planted');
    const counts = pools.warmPython.counts();
    const result = await call(tools.get('uses_json'));
    expect(pools.warmPython.counts().warm).toBe(counts.warm + (mode === 'warm' ? 1 : 0));
    expect(result.status).toBe('SUCCESS');
    expect(result.data).toBe('{"from": "the real json"}\n');
  });

  it.each(['cold', 'warm'])('module and script tools: no working folder, no "" and no user site-packages on sys.path (%s)', async (mode) => {
    const tools = byMode.get(mode)!;
    const module = (await call(tools.get('module_path'))).data as { path: string[]; cwd: string; user_site: boolean };
    const script = (await call(tools.get('script_path_script'))).data as { path: string[]; cwd: string; user_site: boolean };
    expect(script.cwd).toBe(workDir);
    for (const seen of [module, script]) {
      expect(seen.user_site).toBe(false);
      expect(seen.path.filter((p) => p === '' || p === '.' || p.startsWith(workDir) || p.includes('/.local/'))).toEqual([]);
      // The tool's own folder (read-only in the sandbox) comes first, as for `python FILE`.
      expect(seen.path[0]!.startsWith(root)).toBe(true);
    }
  });
});
