// The one audit log: decisions and `mcp serve`'s entries (kind `mcp-serve`) in one file per day;
// serve entries are bounded; `tooldesk audit` (readAudit) lists decisions only; a failing write
// is reported once and never throws. (Moved here with the code from host/mcp-server/audit-log.ts.)
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileAuditWriter, readAudit } from '../../../electron/runtime/audit/audit-log.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const linesOf = (dir: string) =>
  readdirSync(dir)
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('fileAuditWriter', () => {
  it('appends one bounded JSON line per mcp-serve event, creating its folder', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'td-audit-')), 'audit');
    dirs.push(dir);
    const log = fileAuditWriter(dir);
    log.write({ kind: 'mcp-serve', connection: 'c1', event: 'call', tool: 't', callId: 'x', args: { text: 'a'.repeat(10_000) } });
    log.write({ kind: 'mcp-serve', connection: 'c1', event: 'result', tool: 't', callId: 'x', status: 'SUCCESS', text: 'ok' });
    const lines = linesOf(dir);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ connection: 'c1', event: 'call', tool: 't' });
    expect(String(lines[0]!.args)).toMatch(/more characters\]$/);
    expect(String(lines[0]!.args).length).toBeLessThan(4100);
    expect(lines[1]).toMatchObject({ event: 'result', status: 'SUCCESS', text: 'ok' });
  });

  it('keeps decisions and serve entries in one file; readAudit lists the decisions only', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'td-audit-')), 'audit');
    dirs.push(dir);
    const log = fileAuditWriter(dir);
    log.write({ kind: 'mcp-serve', connection: 'c1', event: 'approval', tool: 'rm', callId: 'x', type: 'execution', decision: 'reject', asked: true });
    log.write({ sessionId: 'c1', callId: 'x', tool: 'rm', decision: 'rejected', by: 'user-reject', level: 'default', argsHash: 'h' });
    expect(readdirSync(dir)).toHaveLength(1);
    expect(linesOf(dir).map((l) => l.kind ?? 'decision')).toEqual(['mcp-serve', 'decision']);
    expect(readAudit(dir)).toEqual([expect.objectContaining({ tool: 'rm', decision: 'rejected' })]);
  });

  it('reports a write failure once and never throws', () => {
    if (process.getuid?.() === 0) return; // root writes anywhere: nothing to fail here
    const dir = mkdtempSync(join(tmpdir(), 'td-audit-'));
    dirs.push(dir);
    chmodSync(dir, 0o500);
    const errors: string[] = [];
    const log = fileAuditWriter(join(dir, 'audit'), { onError: (m) => errors.push(m) });
    log.write({ kind: 'mcp-serve', connection: 'c', event: 'disconnect' });
    log.write({ kind: 'mcp-serve', connection: 'c', event: 'disconnect' });
    expect(errors).toHaveLength(1);
  });
});
