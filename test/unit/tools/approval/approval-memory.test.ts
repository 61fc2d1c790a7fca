import { describe, expect, it } from 'vitest';
import { ApprovalMemory, approvalKey } from '../../../../electron/runtime/tools/approval/approval-memory.ts';

describe('ApprovalMemory', () => {
  it('keys by type, tool and canonical args, so key order does not matter', () => {
    expect(approvalKey('execution', 't', { a: 1, b: 2 })).toBe(approvalKey('execution', 't', { b: 2, a: 1 }));
    expect(approvalKey('execution', 't', { a: 1 })).not.toBe(approvalKey('result', 't', { a: 1 }));
    expect(approvalKey('execution', 't', { a: 1 })).not.toBe(approvalKey('execution', 'u', { a: 1 }));
  });

  it('recalls what was remembered and forgets a tool', () => {
    const memory = new ApprovalMemory();
    memory.remember('execution', 'rm', { path: '/tmp/x' }, { decision: 'rejected', reason: 'no' });
    memory.remember('execution', 'ls', { path: '/' }, { decision: 'approved', scope: 'session' });
    expect(memory.recall('execution', 'rm', { path: '/tmp/x' })).toEqual({ decision: 'rejected', reason: 'no' });
    expect(memory.recall('execution', 'rm', { path: '/tmp/y' })).toBeUndefined();
    memory.forgetTool('rm');
    expect(memory.recall('execution', 'rm', { path: '/tmp/x' })).toBeUndefined();
    expect(memory.size).toBe(1);
  });

  it('exports and imports through JSON, skipping malformed entries', () => {
    const memory = new ApprovalMemory();
    memory.remember('execution', 'ls', { b: 1, a: 2 }, { decision: 'approved', scope: 'once' });
    const data = JSON.parse(JSON.stringify(memory.export()));
    data.entries.push({ key: 'x', toolName: 't', type: 'bogus', remembered: { decision: 'approved', scope: 'once' } });
    data.entries.push({ key: 'y', toolName: 't', type: 'execution', remembered: { decision: 'maybe' } });
    const copy = new ApprovalMemory();
    expect(copy.import(data)).toBe(1);
    expect(copy.import('garbage')).toBe(0);
    expect(copy.recall('execution', 'ls', { a: 2, b: 1 })).toEqual({ decision: 'approved', scope: 'once' });
  });
});
