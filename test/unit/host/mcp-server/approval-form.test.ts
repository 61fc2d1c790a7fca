import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../../shared/tools.ts';
import { approvalForm, decisionFrom } from '../../../../electron/runtime/host/mcp-server/approval-form.ts';

const request = (over: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  id: 'r1',
  type: 'execution',
  sessionId: 's',
  callId: 'c',
  toolName: 'delete_file',
  groupName: 'files',
  args: { path: '/tmp/x' },
  policy: 'ask-always',
  ...over,
});

describe('approvalForm', () => {
  it('asks about the tool, its group, its policy and the resolved arguments', () => {
    const form = approvalForm(request(), 'delete_file');
    expect(form.message).toContain('run delete_file (group files, policy ask-always)');
    expect(form.message).toContain('"path": "/tmp/x"');
    expect(form.requestedSchema.required).toEqual(['decision']);
    const decision = form.requestedSchema.properties.decision as { oneOf: { const: string }[] };
    expect(decision.oneOf.map((o) => o.const)).toEqual(['once', 'connection', 'reject']);
  });

  it('quotes a result for result approval, bounded', () => {
    const form = approvalForm(request({ type: 'result', policy: 'always', result: { status: 'SUCCESS', text: 'y'.repeat(5000) } }), 'delete_file');
    expect(form.message).toContain('send the result of delete_file');
    expect(form.message).toContain('… (3000 more characters)');
    expect(form.message.length).toBeLessThan(2300);
  });
});

describe('decisionFrom', () => {
  const client = 'the MCP client "x"';
  it('maps the three choices', () => {
    expect(decisionFrom({ kind: 'elicit', action: 'accept', content: { decision: 'once' } }, client)).toEqual({ decision: 'once' });
    expect(decisionFrom({ kind: 'elicit', action: 'accept', content: { decision: 'connection' } }, client)).toEqual({ decision: 'session' });
    expect(decisionFrom({ kind: 'elicit', action: 'accept', content: { decision: 'reject', reason: '  no  ' } }, client)).toEqual({ decision: 'reject', reason: 'no' });
  });

  it('rejects everything else, saying why; a remote client cannot choose "always"', () => {
    expect(decisionFrom({ kind: 'elicit', action: 'accept', content: { decision: 'always' } }, client).decision).toBe('reject');
    expect(decisionFrom({ kind: 'elicit', action: 'accept', content: {} }, client).reason).toContain('without a valid decision');
    expect(decisionFrom({ kind: 'elicit', action: 'decline' }, client).reason).toBe('Declined in the MCP client "x".');
    expect(decisionFrom({ kind: 'elicit', action: 'cancel' }, client).reason).toContain('dismissed');
    expect(decisionFrom({ kind: 'missing' }, client).decision).toBe('reject');
    expect(decisionFrom({ kind: 'elicit', action: 'accept', content: { decision: 'reject' } }, client).reason).toBe('Rejected in the MCP client "x".');
  });
});
