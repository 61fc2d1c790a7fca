import { describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSION, effectivePermission } from '../../../../electron/runtime/tools/approval/approval-policy.ts';

describe('effectivePermission', () => {
  it('defaults to ask-once / never', () => {
    expect(effectivePermission()).toEqual({ executionPolicy: 'ask-once', resultApprovalPolicy: 'never' });
    expect(DEFAULT_PERMISSION).toEqual({ executionPolicy: 'ask-once', resultApprovalPolicy: 'never' });
  });

  it('takes each field from the strongest layer that sets it', () => {
    const user = { resultApprovalPolicy: 'always' as const };
    const tool = { executionPolicy: 'auto' as const, resultApprovalPolicy: 'never' as const };
    const group = { executionPolicy: 'ask-always' as const };
    expect(effectivePermission(user, tool, group)).toEqual({ executionPolicy: 'auto', resultApprovalPolicy: 'always' });
    expect(effectivePermission(undefined, undefined, group)).toEqual({ executionPolicy: 'ask-always', resultApprovalPolicy: 'never' });
  });

  it('ignores invalid values instead of obeying them', () => {
    const bad = { executionPolicy: 'yolo', resultApprovalPolicy: 'sometimes' } as never;
    expect(effectivePermission(bad, { executionPolicy: 'ask-always' })).toEqual({ executionPolicy: 'ask-always', resultApprovalPolicy: 'never' });
  });
});
