// What the app accepts from a tool host (which runs user code): bounded lines, checked messages,
// results cut to their known fields, cache writes only under a hash name.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { checkedResult, parse, readLines, validDiagnostic, validToolInfo } from '../../../electron/runtime/sources/module/host-messages.ts';
import { bindExec } from '../../../electron/runtime/sources/module/exec-binding.ts';
import type { Pending } from '../../../electron/runtime/sources/module/host-incarnation.ts';
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

  it('refuses an exec that asks for a secret its tool did not declare, or is malformed, before anything runs', async () => {
    const spawned: string[] = [];
    const ctx = testSourceContext({ runner: async (spec) => (spawned.push(spec.command), { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, aborted: false, stdoutTruncated: false, stderrTruncated: false, durationMs: 0, sandboxed: false }) });
    const record = { loadId: 1, entry: { root: '/r', path: '/r/m.ts', format: 'module' as const }, label: 'm', toolDir: '/r', secrets: new Map([['k', new Set(['MINE'])]]) };
    const allowed = new Set(['MINE']);
    const signal = new AbortController().signal;
    expect(await runModuleExec(ctx, record, allowed, { command: 'sh', args: [], secrets: ['OTHER'] }, signal)).toMatchObject({ code: 127, stderr: expect.stringContaining('OTHER were not declared') });
    expect(await runModuleExec(ctx, record, allowed, { command: 'sh', args: [1] } as unknown as ExecRequest, signal)).toMatchObject({ code: 127 });
    expect(spawned).toEqual([]);
    expect(await runModuleExec(ctx, record, allowed, { command: 'sh', args: ['-c', 'true'], secrets: ['MINE'] }, signal)).toMatchObject({ code: 0 });
    expect(spawned).toEqual(['sh']);
  });

  it('binds an exec to a running call: its module, its call id and its tool’s secrets (issue 32 §3, §11)', () => {
    const record = (loadId: number) => ({ loadId, entry: { root: '/r', path: `/r/m${loadId}.ts`, format: 'module' as const }, label: 'm', toolDir: '/r', secrets: new Map([['keyed', new Set(['K'])]]) });
    const loads = new Map([[1, record(1)], [2, record(2)]]);
    const call = (loadId: number, key: string, callId: string): Pending => ({ kind: 'execute', file: '/r/m.ts', resolve: () => {}, onUpdate: () => {}, output: { stdout: '', stderr: '', cut: {} }, trace: undefined, loadId, key, callId });
    const pending = new Map<number, Pending>([[7, call(1, 'keyed', 'call_a')], [8, call(1, 'plain', 'call_b')], [9, { kind: 'load', file: '/r/m.ts', resolve: () => {} }]]);
    const exec = (fields: Record<string, unknown>) => bindExec({ t: 'exec', id: 1, loadId: 1, request: { command: 'x', args: [], secrets: [] }, ...fields } as never, pending, loads);
    const bound = exec({ executeId: 7, callId: 'call_a' });
    expect('refused' in bound ? bound.refused : [...bound.secrets]).toEqual(['K']);
    // The sibling tool of the same module gets no secret of its own module's other tool.
    const sibling = exec({ executeId: 8, callId: 'call_b' });
    expect('refused' in sibling ? sibling.refused : [...sibling.secrets]).toEqual([]);
    expect(exec({})).toMatchObject({ forged: false, refused: expect.stringContaining('only be started by a running call') });
    expect(exec({ executeId: 6, callId: 'call_a' })).toMatchObject({ forged: false, refused: expect.stringContaining('already ended') });
    expect(exec({ executeId: 9, callId: 'call_a' })).toMatchObject({ forged: false, refused: expect.stringContaining('already ended') });
    expect(exec({ executeId: 7, loadId: 2, callId: 'call_a' })).toMatchObject({ forged: true, refused: expect.stringContaining('another module') });
    expect(exec({ executeId: 7, callId: 'call_b' })).toMatchObject({ forged: true });
    expect(exec({ executeId: 7 })).toMatchObject({ forged: true });
  });
});
