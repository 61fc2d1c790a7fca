// Inspect for module (TS/JS) tools: the tool host that ran the call (pid, command line, working
// folder), what the module printed during that call — attributed by the host to the call whose
// async context wrote it, so two calls running at once in one host each see only their own —
// and the processes the module's exec() started, listed under the call that asked.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunner } from '../../electron/runtime/runner/create-runner.ts';
import { loadModuleFactories } from '../../electron/runtime/sources/module/index.ts';
import { MAX_CALL_OUTPUT_CHARS } from '../../electron/runtime/sources/module/host-protocol.ts';
import { tracedRunner } from '../../electron/runtime/sources/process/traced-runner.ts';
import { ToolExecutor } from '../../electron/runtime/tools/tool-executor.ts';
import { testSourceContext } from '../support/tool-source-context.ts';

const CHATTY = `
console.log("printed at load time");
export default (api: any) => [
  {
    name: "chatty",
    parameters: { type: "object", properties: { label: { type: "string" }, ms: { type: "number" } }, required: ["label"] },
    execute: async (_id: string, args: any) => {
      console.log("out " + args.label);
      process.stderr.write("err " + args.label + "\\n");
      await new Promise((r) => setTimeout(r, args.ms ?? 10));
      const r = await api.exec("sh", ["-c", "echo exec-" + args.label]);
      console.log("after exec " + args.label);
      return r.stdout.trim();
    },
  },
  {
    name: "flood",
    execute: async () => { process.stdout.write("x".repeat(${MAX_CALL_OUTPUT_CHARS} + 500)); return "flooded"; },
  },
];
`;

async function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'td-inspect-'));
  writeFileSync(join(dir, 'chatty.ts'), CHATTY);
  const ctx = testSourceContext({ workingDir: dir, runner: tracedRunner(createRunner()) });
  const { groups, diagnostics } = await loadModuleFactories([{ root: dir, path: join(dir, 'chatty.ts'), format: 'module' }], ctx);
  expect(diagnostics).toEqual([]);
  const executor = new ToolExecutor({ sessionId: 'inspect', approve: async () => ({ decision: 'once' }) });
  for (const g of groups) {
    executor.registerToolGroup(g);
    executor.toggleGroupEnabled(g.name, true);
  }
  return { dir, ctx, executor };
}

describe('Inspect of a module tool call', () => {
  it('shows the host process and only this call’s output, with its exec() processes, when two calls run at once', async () => {
    const { dir, ctx, executor } = await setUp();
    const [x, y] = await Promise.all([executor.execute('chatty', { label: 'X', ms: 300 }), executor.execute('chatty', { label: 'Y', ms: 50 })]);
    expect(x.finalText).toBe('exec-X');
    expect(y.finalText).toBe('exec-Y');
    const [host] = ctx.moduleHosts.hostsOf(ctx);
    for (const [label, result] of [['X', x], ['Y', y]] as const) {
      const other = label === 'X' ? 'Y' : 'X';
      const toolHost = result.inspection!.toolHost!;
      expect(toolHost.pid).toBeGreaterThan(0);
      expect(toolHost.pid).toBe(await host!.pid());
      expect(toolHost.cwd).toBe(dir);
      expect(toolHost.command).toMatch(/node/);
      expect(toolHost.args.join(' ')).toMatch(/module-host/);
      expect(toolHost.stdout).toBe(`out ${label}\nafter exec ${label}\n`);
      expect(toolHost.stderr).toBe(`err ${label}\n`);
      expect(toolHost.stdout).not.toContain(other);
      expect(toolHost.stdout).not.toContain('printed at load time');
      expect(result.inspection!.processes.map((p) => [p.command, ...p.args].join(' '))).toEqual([`sh -c echo exec-${label}`]);
      expect(result.inspection!.processes[0]!.stdout).toBe(`exec-${label}\n`);
    }
  });

  it('output past the bound is cut and counted', async () => {
    const { executor } = await setUp();
    const result = await executor.execute('flood', {});
    const toolHost = result.inspection!.toolHost!;
    expect(toolHost.stdout).toHaveLength(MAX_CALL_OUTPUT_CHARS);
    expect(toolHost.cut).toEqual({ stdout: 500 });
  });
});
