import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../electron/runtime/runner/types.ts';
import { moduleToolFields } from '../../../electron/runtime/sources/cached-modules/module-tool.ts';
import { processResult } from '../../../electron/runtime/sources/process/run-tool-process.ts';
import { pythonReading } from '../../../electron/runtime/sources/python/tool.ts';

const run = (patch: Partial<RunResult>): RunResult => ({
  exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, aborted: false,
  stdoutTruncated: false, stderrTruncated: false, durationMs: 1, sandboxed: false, ...patch,
});

const fields = moduleToolFields({ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }, { root: '/r', path: '/r/m.py', format: 'python' }, '`f.timeout = seconds`');
const envelopeToResult = (r: RunResult, timeoutMs: number, marker: string) => processResult(r, pythonReading(marker, fields.timeoutMessage), timeoutMs);

describe('pythonReading', () => {
  it('reads the fd 3 envelope; stdout is logs', () => {
    expect(envelopeToResult(run({ channel: '{"success": true, "result": 1}\n', stdout: '{"success": false}\n' }), 1000, 'M')).toEqual({ status: 'SUCCESS', data: 1, logs: '{"success": false}\n' });
  });

  it('falls back to the envelope after the marker on stdout where fd 3 is not inherited (Windows)', () => {
    const result = envelopeToResult(run({ channel: '', stdout: 'printed\n\nM-123\n{"success": true, "result": {"a": 1}, "formattedText": "A"}\n' }), 1000, 'M-123');
    expect(result).toEqual({ status: 'SUCCESS', data: { a: 1 }, formattedText: 'A', logs: 'printed\n' });
  });

  it('explains a missing envelope, a timeout and a cut result', () => {
    expect(envelopeToResult(run({ exitCode: 1, stderr: 'Killed\n' }), 1000, 'M')).toMatchObject({ status: 'ERROR', error: expect.stringMatching(/exited with code 1 before reporting a result\. Killed/) });
    expect(envelopeToResult(run({ timedOut: true, exitCode: null }), 30_000, 'M')).toMatchObject({ status: 'ERROR', error: expect.stringMatching(/^Timed out after 30 s/) });
    expect(envelopeToResult(run({ timedOut: true, exitCode: null }), 30_000, 'M').error).toBe("Timed out after 30 s and was stopped — raise the tool's timeout in /r/m.py (`f.timeout = seconds`) or Settings → Limits → Tool timeout (limits.toolTimeoutMs)");
    expect(envelopeToResult(run({ channel: '{"success": tr', channelTruncated: true }), 1000, 'M')).toMatchObject({ status: 'ERROR', error: expect.stringMatching(/larger than the output cap/) });
  });
});
