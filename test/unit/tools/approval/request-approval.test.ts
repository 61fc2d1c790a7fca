import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../../shared/tools.ts';
import { requestApproval } from '../../../../electron/runtime/tools/approval/request-approval.ts';

const request: ApprovalRequest = {
  id: 'r1',
  type: 'execution',
  sessionId: 's',
  callId: 'c',
  toolName: 't',
  groupName: 'g',
  args: {},
  policy: 'ask-once',
};

describe('requestApproval', () => {
  it('rejects with a clear reason when no callback is attached', async () => {
    const out = await requestApproval(undefined, request, undefined);
    expect(out).toEqual({ approved: false, reason: expect.stringContaining('no approval handler') });
  });

  it('passes approvals and rejections through, with the reason', async () => {
    expect(await requestApproval(async () => ({ decision: 'session' }), request, undefined)).toMatchObject({ approved: true });
    const rejected = await requestApproval(async () => ({ decision: 'reject', reason: 'too risky' }), request, undefined);
    expect(rejected).toMatchObject({ approved: false, reason: 'too risky' });
    const bare = await requestApproval(async () => ({ decision: 'reject' }), request, undefined);
    expect(bare).toMatchObject({ approved: false, reason: 'Rejected by the user.' });
  });

  it('turns a throwing callback or a nonsense answer into a rejection', async () => {
    const threw = await requestApproval(async () => Promise.reject(new Error('ui gone')), request, undefined);
    expect(threw).toEqual({ approved: false, reason: 'Approval failed: ui gone' });
    const nonsense = await requestApproval(async () => ({ decision: 'maybe' }) as never, request, undefined);
    expect(nonsense.approved).toBe(false);
  });

  it('rejects when the signal aborts while the approval is pending, and tells the callback', async () => {
    const controller = new AbortController();
    let callbackSignal: AbortSignal | undefined;
    const pending = requestApproval(
      (_req, signal) => {
        callbackSignal = signal;
        return new Promise(() => {});
      },
      request,
      controller.signal,
    );
    setTimeout(() => controller.abort(), 5);
    const out = await pending;
    expect(out).toEqual({ approved: false, reason: expect.stringContaining('Aborted') });
    expect(callbackSignal?.aborted).toBe(true);
  });

  it('does not ask when already aborted', async () => {
    let asked = false;
    const out = await requestApproval(async () => ((asked = true), { decision: 'once' }), request, AbortSignal.abort());
    expect(out.approved).toBe(false);
    expect(asked).toBe(false);
  });
});
