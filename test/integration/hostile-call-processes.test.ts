// Issue 20 §3: every process a call started ends with the call. A module tool that starts
// exec() without waiting for it returns at once; its sandboxed child must not keep running, and
// `tooldesk tools run` must exit. Real modules in the real tool host, and the real CLI.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadModuleFactories } from '../../electron/runtime/sources/module/index.ts';
import { waitNoneWithMarker } from '../support/live-processes.ts';
import { testModuleHosts, testSourceContext, testToolContext } from '../support/tool-source-context.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(REPO, 'electron/cli/bin.mjs');
const marker = `td-unawaited-${process.pid}-${Date.now()}`;

const MODULE = `export default function (pi: any) {
  pi.registerTool({
    name: "leaves_exec", label: "leaves exec", description: "Starts a sleeper it does not wait for.",
    parameters: { type: "object", properties: {} },
    execute: async () => {
      void pi.exec("sh", ["-c", "sleep 30; : ${marker}"]);
      return { content: [{ type: "text", text: "returned" }] };
    },
  });
  pi.registerTool({
    name: "execs_later", label: "execs later", description: "Starts a sleeper after it answered.",
    parameters: { type: "object", properties: {} },
    execute: async () => {
      setTimeout(() => void pi.exec("sh", ["-c", "sleep 30; : ${marker}"]), 300);
      return { content: [{ type: "text", text: "returned" }] };
    },
  });
}
`;

function moduleRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'td-unawaited-'));
  writeFileSync(join(root, 'leaves_exec.ts'), MODULE);
  return root;
}

describe("a call's processes end with the call", () => {
  afterAll(() => testModuleHosts.shutdown());

  it('an exec() a module tool did not wait for ends once the call answered', async () => {
    const root = moduleRoot();
    const ctx = testSourceContext();
    const { groups } = await loadModuleFactories([{ root, path: join(root, 'leaves_exec.ts'), format: 'module' }], ctx);
    const tools = new Map(groups.flatMap((g) => g.tools).map((t) => [t.definition.function.name, t]));
    for (const name of ['leaves_exec', 'execs_later']) {
      const result = await tools.get(name)!.execute({}, testToolContext());
      expect(result.status).toBe('SUCCESS');
      await new Promise((r) => setTimeout(r, 600));
      expect(await waitNoneWithMarker(marker, 2000), name).toEqual([]);
    }
  });

  it('`tooldesk tools run` of such a tool exits', () => {
    const home = mkdtempSync(join(tmpdir(), 'td-unawaited-home-'));
    const started = Date.now();
    const run = spawnSync(process.execPath, [BIN, 'tools', 'run', 'leaves_exec', '--root', moduleRoot(), '--yes'], { cwd: REPO, env: { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: home }, encoding: 'utf8', timeout: 20_000 });
    const ms = Date.now() - started;
    expect(run.error, `${run.stdout}\n${run.stderr}`).toBeUndefined();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('returned');
    expect(ms).toBeLessThan(15_000);
  }, 30_000);

  afterAll(async () => {
    expect(await waitNoneWithMarker(marker, 3000)).toEqual([]);
  });
});
