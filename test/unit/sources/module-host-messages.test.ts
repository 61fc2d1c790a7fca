// What the app accepts from a tool host (which runs user code): bounded lines, checked messages,
// results cut to their known fields, cache writes only under a hash name.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { checkedResult, parse, readLines, validDiagnostic, validToolInfo } from '../../../electron/runtime/sources/module/host-messages.ts';
import { runModuleExec } from '../../../electron/runtime/sources/module/module-exec.ts';
import { storeTransformed } from '../../../electron/runtime/sources/module/transform-store.ts';
import type { ExecRequest } from '../../../electron/runtime/sources/module/host-protocol.ts';
import { testSourceContext } from '../../support/tool-source-context.ts';

describe('tool host messages', () => {
  it('splits lines across chunks and reports a line over the cap instead of buffering it', () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    let overflows = 0;
    readLines(stream, (line) => lines.push(line), () => overflows++, 16);
    stream.write('{"a":1}\n{"b"');
    stream.write(':2}\nab');
    stream.write('x'.repeat(20));
    stream.write('\nok\n');
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '', 'ok']);
    expect(overflows).toBe(1);
  });

  it('parses only objects with a type; garbage is dropped', () => {
    expect(parse('{"t":"ready","pid":1}')).toEqual({ t: 'ready', pid: 1 });
    for (const bad of ['garbage', '[1,2]', '"t"', '{"id":1}', 'null', '{"t":5}']) expect(parse(bad), bad).toBeNull();
  });

  it('keeps a result’s known fields with their types only', () => {
    expect(checkedResult({ status: 'SUCCESS', data: { x: 1 }, formattedText: 'x', logs: 'l', warnings: ['w', 5], error: 3, extra: 'dropped' })).toEqual({ status: 'SUCCESS', data: { x: 1 }, formattedText: 'x', logs: 'l', warnings: ['w'] });
    expect(checkedResult({ status: 'PENDING_APPROVAL' })).toEqual({});
    expect(checkedResult('nope')).toEqual({ status: 'ERROR', error: 'the tool host sent a malformed result' });
  });

  it('accepts tool infos and diagnostics only in their shape', () => {
    const fn = { name: 't', description: '', parameters: { type: 'object' } };
    expect(validToolInfo({ key: 'k', file: 'f', definition: { type: 'function', function: fn }, meta: {}, hasOnSession: false })).toBe(true);
    expect(validToolInfo({ key: 'k', definition: { function: { ...fn, name: '' } } })).toBe(false);
    expect(validToolInfo({ key: 'k', definition: { function: { ...fn, parameters: 'x' } } })).toBe(false);
    expect(validDiagnostic({ severity: 'error', file: 'f', message: 'm' })).toBe(true);
    expect(validDiagnostic({ severity: 'fatal', file: 'f', message: 'm' })).toBe(false);
  });

  it('stores a transpiled module only under a 40-hex-digit name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-cache-'));
    storeTransformed(dir, 'a'.repeat(40), 'code');
    for (const bad of ['../escape', 'A'.repeat(40), 'a'.repeat(39), 42]) storeTransformed(dir, bad, 'code');
    expect(readdirSync(dir)).toEqual([`${'a'.repeat(40)}.cjs`]);
    expect(existsSync(join(dir, '..', 'escape.cjs'))).toBe(false);
  });

  it('refuses an exec that asks for an undeclared secret or is malformed, before anything runs', async () => {
    const spawned: string[] = [];
    const ctx = testSourceContext({ runner: async (spec) => (spawned.push(spec.command), { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, aborted: false, stdoutTruncated: false, stderrTruncated: false, durationMs: 0, sandboxed: false }) });
    const record = { loadId: 1, entry: { root: '/r', path: '/r/m.ts', format: 'module' as const }, label: 'm', toolDir: '/r', secrets: new Set(['MINE']) };
    const signal = new AbortController().signal;
    expect(await runModuleExec(ctx, record, { command: 'sh', args: [], secrets: ['OTHER'] }, signal)).toMatchObject({ code: 127, stderr: expect.stringContaining('OTHER were not declared') });
    expect(await runModuleExec(ctx, record, { command: 'sh', args: [1] } as unknown as ExecRequest, signal)).toMatchObject({ code: 127 });
    expect(spawned).toEqual([]);
    expect(await runModuleExec(ctx, record, { command: 'sh', args: ['-c', 'true'], secrets: ['MINE'] }, signal)).toMatchObject({ code: 0 });
    expect(spawned).toEqual(['sh']);
  });
});
