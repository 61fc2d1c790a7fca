import { describe, expect, it } from 'vitest';
import type { ApprovalDecision, ApprovalRequest, ToolPermission } from '../../../../shared/tools.ts';
import { ApprovalGate, type ApprovalSubject } from '../../../../electron/runtime/tools/approval/approval-gate.ts';
import { makeTool } from '../make-tool.ts';

const subject: ApprovalSubject = { toolName: 'rm', groupName: 'g', callId: 'c1', args: { path: '/x' } };
const live = new AbortController().signal;

function gateWith(answers: ApprovalDecision[], stored: Record<string, ToolPermission> = {}) {
  const requests: ApprovalRequest[] = [];
  const logs: string[] = [];
  const gate = new ApprovalGate({
    sessionId: 's1',
    approve: async (request) => (requests.push(request), answers.shift() ?? { decision: 'reject' }),
    permissions: { get: (n) => stored[n], set: (n, p) => void (stored[n] = p) },
    log: (m) => logs.push(m),
  });
  return { gate, requests, stored, logs };
}

describe('ApprovalGate', () => {
  it('lets auto through without asking', async () => {
    const { gate, requests } = gateWith([]);
    expect(await gate.execution(subject, 'auto', live)).toEqual({ allowed: true, by: 'policy' });
    expect(requests).toHaveLength(0);
  });

  it('numbers request ids uniquely per session and call', async () => {
    const { gate, requests } = gateWith([{ decision: 'once' }, { decision: 'once' }]);
    await gate.execution(subject, 'ask-always', live);
    await gate.execution(subject, 'ask-always', live);
    expect(requests.map((r) => r.id)).toEqual(['s1:c1:execution:1', 's1:c1:execution:2']);
  });

  it('layers the user override, session decisions, the tool and the group', async () => {
    const { gate } = gateWith([{ decision: 'always' }], { rm: { resultApprovalPolicy: 'always' } });
    const tool = makeTool('rm', undefined, { permission: { executionPolicy: 'ask-always' } });
    expect(gate.permissionOf('rm', tool, { name: 'g', tools: [], defaultPermission: { resultApprovalPolicy: 'on-error' } })).toEqual({
      executionPolicy: 'ask-always',
      resultApprovalPolicy: 'always',
    });
    await gate.execution(subject, 'ask-always', live);
    expect(gate.permissionOf('rm', tool, undefined).executionPolicy).toBe('auto');
  });

  it('logs a permission store that throws and falls back to the other layers', () => {
    const logs: string[] = [];
    const gate = new ApprovalGate({
      sessionId: 's',
      permissions: { get: () => { throw new Error('store broken'); }, set: () => {} },
      log: (m) => logs.push(m),
    });
    expect(gate.permissionOf('rm', makeTool('rm'), undefined).executionPolicy).toBe('auto');
    expect(logs[0]).toContain('store broken');
  });

  it('"session" on a result stops result asks for this session without persisting', async () => {
    const { gate, requests, stored } = gateWith([{ decision: 'session' }]);
    const result = { status: 'SUCCESS' as const, text: 'out' };
    expect(await gate.result(subject, 'always', result, live)).toEqual({ allowed: true, by: 'user-session' });
    expect(requests[0]).toMatchObject({ type: 'result', result });
    expect(gate.permissionOf('rm', makeTool('rm', undefined, { permission: { resultApprovalPolicy: 'always' } }), undefined).resultApprovalPolicy).toBe('never');
    expect(stored.rm).toBeUndefined();
  });

  it('never asks about results under "never", and about successes under "on-error"', async () => {
    const { gate, requests } = gateWith([]);
    await gate.result(subject, 'never', { status: 'ERROR', text: 'x' }, live);
    await gate.result(subject, 'on-error', { status: 'SUCCESS', text: 'x' }, live);
    expect(requests).toHaveLength(0);
  });
});
