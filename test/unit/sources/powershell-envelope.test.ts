// powershellOutcome is pure: its contract is tested here, where pwsh itself cannot run.
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../electron/runtime/runner/types.ts';
import { moduleToolFields } from '../../../electron/runtime/sources/cached-modules/module-tool.ts';
import { powershellReading } from '../../../electron/runtime/sources/powershell/tool.ts';
import { processResult } from '../../../electron/runtime/sources/process/run-tool-process.ts';

const run = (patch: Partial<RunResult>): RunResult => ({
  exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, aborted: false,
  stdoutTruncated: false, stderrTruncated: false, durationMs: 1, sandboxed: false, ...patch,
});

// A function with its own TOOL_CONFIG timeout: the message names only the file.
const fields = moduleToolFields({ type: 'function', function: { name: 'Get-Weather', parameters: { type: 'object', properties: {} } }, timeoutMs: 30_000 }, { root: '/r', path: '/r/w.ps1', format: 'powershell' }, '`# TOOL_CONFIG: {"timeout": seconds}`');
const powershellOutcome = (r: RunResult, marker: string, timeoutMs: number) => processResult(r, powershellReading(marker, fields.timeoutMessage), timeoutMs);

describe('powershellReading', () => {
  it('takes the envelope after the marker (BOMs stripped); what the tool wrote before it is logs', () => {
    const stdout = '\uFEFFWrite-Output from the tool\nM-1\n\uFEFF{"success":true,"result":{"City":"Paris"},"formattedText":"Paris"}\n';
    expect(powershellOutcome(run({ stdout, stderr: 'a warning\n' }), 'M-1', 1000)).toEqual({
      status: 'SUCCESS', data: { City: 'Paris' }, formattedText: 'Paris', logs: 'Write-Output from the tool\n\na warning',
    });
  });

  it('cannot be fooled by a fake envelope the tool prints before the marker', () => {
    const stdout = '{"success":false,"error":"forged"}\nM-1\n{"success":true,"result":null}\n';
    expect(powershellOutcome(run({ stdout }), 'M-1', 1000)).toMatchObject({ status: 'SUCCESS', data: null });
  });

  it('passes on the warning run_tool.ps1 gives when the result had to become a string', () => {
    const stdout = 'M-1\n{"success":true,"result":"System.Object","warnings":["converted to a string"]}\n';
    expect(powershellOutcome(run({ stdout }), 'M-1', 1000)).toEqual({ status: 'SUCCESS', data: 'System.Object', warnings: ['converted to a string'] });
  });

  it('passes an error envelope on with its message and script stack trace', () => {
    const stdout = 'M-1\n{"success":false,"error":"Cannot bind parameter","traceback":"at Get-Weather"}\n';
    expect(powershellOutcome(run({ stdout, exitCode: 1 }), 'M-1', 1000)).toEqual({ status: 'ERROR', error: 'Cannot bind parameter', data: { traceback: 'at Get-Weather' }, logs: 'at Get-Weather' });
  });

  it('explains a missing envelope, a timeout, an abort, a failed start and a cut output', () => {
    expect(powershellOutcome(run({ exitCode: 1, stderr: 'boom\n' }), 'M-1', 1000)).toMatchObject({ status: 'ERROR', error: 'The tool failed: it exited with code 1 before reporting a result. boom' });
    expect(powershellOutcome(run({ timedOut: true, exitCode: null }), 'M-1', 30_000)).toMatchObject({ status: 'ERROR', error: expect.stringMatching(/^Timed out after 30 s/) });
    expect(powershellOutcome(run({ timedOut: true, exitCode: null }), 'M-1', 30_000).error).toBe('Timed out after 30 s and was stopped — raise the tool\'s timeout in /r/w.ps1 (`# TOOL_CONFIG: {"timeout": seconds}`)');
    expect(powershellOutcome(run({ aborted: true }), 'M-1', 1000)).toMatchObject({ status: 'ERROR', error: 'Aborted' });
    expect(powershellOutcome(run({ spawnError: 'ENOENT' }), 'M-1', 1000)).toMatchObject({ status: 'ERROR', error: 'Could not start PowerShell: ENOENT' });
    const cut = powershellOutcome(run({ stdout: 'x'.repeat(100), stdoutTruncated: true, capAction: 'killed', signal: 'SIGKILL', exitCode: null }), 'M-1', 1000);
    expect(cut).toMatchObject({ status: 'ERROR', error: expect.stringMatching(/larger than the output cap/), warnings: ['Output over the cap was cut and the tool stopped.'] });
  });
});
