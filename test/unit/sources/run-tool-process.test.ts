// runToolProcess: the one process call of the script formats. The executor owns the deadline, so
// the runner gets it only as a backstop, and a run stopped by that deadline reads as a timeout.
import { describe, expect, it } from 'vitest';
import type { RunResult, RunSpec } from '../../../electron/runtime/runner/types.ts';
import { RUNNER_BACKSTOP_MS, runToolProcess, type ToolProcess } from '../../../electron/runtime/sources/process/run-tool-process.ts';
import { testSourceContext, testToolContext } from '../../support/tool-source-context.ts';

const finished = (patch: Partial<RunResult> = {}): RunResult => ({
  exitCode: 0, signal: null, stdout: 'out', stderr: '', timedOut: false, aborted: false,
  stdoutTruncated: false, stderrTruncated: false, durationMs: 1, sandboxed: false, ...patch,
});

function setup(result: RunResult) {
  const specs: RunSpec[] = [];
  const ctx = testSourceContext({ sandboxMode: 'auto', outputCapBytes: 4096, runner: async (spec) => (specs.push(spec), result) });
  const tool: ToolProcess = {
    spec: { command: 'python3', args: ['x.py'], cwd: '/work', stdin: '{}' },
    toolName: 't', toolDir: '/tools/t', network: false, secrets: ['API_KEY'], timeoutMs: 5000,
    logs: (run) => run.stderr,
    read: (run, base) => ({ status: 'SUCCESS', data: run.stdout, ...base }),
    notStarted: (why) => `no start: ${why}`,
    aborted: 'stopped by you',
    timedOut: (ms) => `timed out after ${ms} ms — raise it in t.json`,
  };
  return { specs, ctx, tool };
}

describe('runToolProcess', () => {
  it("gives the runner the executor's deadline plus the backstop, and the shared fields", async () => {
    const { specs, ctx, tool } = setup(finished());
    const result = await runToolProcess(ctx, testToolContext({ timeoutMs: 1000 }), tool);
    expect(result).toEqual({ status: 'SUCCESS', data: 'out' });
    expect(specs[0]).toMatchObject({ command: 'python3', args: ['x.py'], cwd: '/work', stdin: '{}', timeoutMs: 1000 + RUNNER_BACKSTOP_MS, maxOutputBytes: 4096, secrets: ['API_KEY'] });
    expect(specs[0]!.sandbox).toMatchObject({ mode: 'auto', toolDir: '/tools/t', network: false });
  });

  it("uses the tool's own timeout as the runner's limit when called without the executor", async () => {
    const { specs, ctx, tool } = setup(finished({ timedOut: true, exitCode: null }));
    expect(await runToolProcess(ctx, testToolContext(), tool)).toEqual({ status: 'ERROR', error: 'timed out after 5000 ms — raise it in t.json' });
    expect(specs[0]!.timeoutMs).toBe(5000);
  });

  it("reads a run the executor's deadline aborted as a timeout, and the user's abort as an abort", async () => {
    const deadline = new AbortController();
    deadline.abort(Object.assign(new Error('timed out'), { name: 'TimeoutError' }));
    const a = setup(finished({ aborted: true, exitCode: null, stderr: 'half done' }));
    expect(await runToolProcess(a.ctx, testToolContext({ signal: deadline.signal, timeoutMs: 1000 }), a.tool)).toEqual({ status: 'ERROR', error: 'timed out after 1000 ms — raise it in t.json', logs: 'half done' });
    const user = new AbortController();
    user.abort(new Error('stop pressed'));
    const b = setup(finished({ aborted: true, exitCode: null }));
    expect(await runToolProcess(b.ctx, testToolContext({ signal: user.signal, timeoutMs: 1000 }), b.tool)).toEqual({ status: 'ERROR', error: 'stopped by you' });
  });

  it('says why a run did not start, with the sandbox note and cap warnings', async () => {
    const { ctx, tool } = setup(finished({ spawnError: 'ENOENT', exitCode: null, sandboxNote: 'ran unsandboxed: no bwrap' }));
    expect(await runToolProcess(ctx, testToolContext(), tool)).toEqual({ status: 'ERROR', error: 'no start: ENOENT', warnings: ['ran unsandboxed: no bwrap'] });
    const cut = setup(finished({ stdoutTruncated: true, capAction: 'finished' }));
    expect(await runToolProcess(cut.ctx, testToolContext(), cut.tool)).toEqual({ status: 'SUCCESS', data: 'out', warnings: ['Output over the cap was cut.'] });
  });
});
