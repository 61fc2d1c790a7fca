import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileAuditLog } from '../../../../electron/runtime/host/mcp-server/audit-log.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('fileAuditLog', () => {
  it('appends one bounded JSON line per event, creating its folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-audit-'));
    dirs.push(dir);
    const file = join(dir, 'logs', 'mcp-audit.jsonl');
    const log = fileAuditLog(file);
    log.write('c1', { event: 'call', tool: 't', callId: 'x', args: { text: 'a'.repeat(10_000) } });
    log.write('c1', { event: 'result', tool: 't', callId: 'x', status: 'SUCCESS', text: 'ok' });
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ connection: 'c1', event: 'call', tool: 't' });
    expect(String(lines[0]!.args)).toMatch(/more characters\]$/);
    expect(String(lines[0]!.args).length).toBeLessThan(4100);
    expect(lines[1]).toMatchObject({ event: 'result', status: 'SUCCESS', text: 'ok' });
  });

  it('reports a write failure once and never throws', () => {
    if (process.getuid?.() === 0) return; // root writes anywhere: nothing to fail here
    const dir = mkdtempSync(join(tmpdir(), 'td-audit-'));
    dirs.push(dir);
    chmodSync(dir, 0o500);
    const errors: string[] = [];
    const log = fileAuditLog(join(dir, 'logs', 'a.jsonl'), (m) => errors.push(m));
    log.write('c', { event: 'disconnect' });
    log.write('c', { event: 'disconnect' });
    expect(errors).toHaveLength(1);
  });
});
