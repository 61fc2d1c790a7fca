import { describe, expect, it } from 'vitest';
import type { PermissionLevel, RuleVerdict } from '../../../../shared/permissions.ts';
import type { ExecutionPolicy } from '../../../../shared/tools.ts';
import { decideCall } from '../../../../electron/runtime/tools/rules/decide-call.ts';

const none: RuleVerdict = { action: 'none' };
const of = (verdict: RuleVerdict, level: PermissionLevel, policy: ExecutionPolicy = 'ask-once', readOnly = false) =>
  decideCall({ verdict, level, policy, readOnly, builtin: false });

describe('decideCall', () => {
  it('lets a deny rule win at every level, with "Denied by rule N" and the reason', () => {
    for (const level of ['ask', 'default', 'read-only-auto', 'trusted'] as const) {
      expect(of({ action: 'deny', rule: 2, label: 'rule 2', reason: 'no' }, level, 'auto')).toEqual({ kind: 'deny', by: 'rule', detail: 'rule 2', reason: 'Denied by rule 2: no' });
    }
  });
  it('asks every call at level ask, even auto tools and allow rules', () => {
    expect(of(none, 'ask', 'auto')).toMatchObject({ kind: 'policy', policy: 'ask-always', by: 'level' });
    expect(of({ action: 'allow', rule: 1, label: 'rule 1' }, 'ask', 'auto')).toMatchObject({ kind: 'policy', policy: 'ask-always' });
  });
  it('follows the policy at default, rules first', () => {
    expect(of(none, 'default', 'auto')).toMatchObject({ kind: 'policy', policy: 'auto', by: 'policy' });
    expect(of({ action: 'ask', rule: 1, label: 'rule 1' }, 'default', 'auto')).toMatchObject({ kind: 'policy', policy: 'ask-always', by: 'rule' });
    expect(of({ action: 'allow', rule: 1, label: 'rule 1' }, 'default', 'ask-always')).toEqual({ kind: 'allow', by: 'rule', detail: 'rule 1' });
  });
  it('runs read-only tools at read-only-auto and asks about the others', () => {
    expect(of(none, 'read-only-auto', 'ask-always', true)).toMatchObject({ kind: 'allow', by: 'level' });
    expect(of(none, 'read-only-auto', 'auto', false)).toMatchObject({ kind: 'policy', policy: 'ask-once' });
  });
  it('allows everything at trusted unless a rule asks', () => {
    expect(of(none, 'trusted', 'ask-always')).toMatchObject({ kind: 'allow', by: 'level' });
    expect(of({ action: 'ask', rule: 4, label: 'rule 4' }, 'trusted', 'auto')).toMatchObject({ kind: 'policy', policy: 'ask-always' });
  });
  it('asks again with the note when an approval is suspended', () => {
    expect(decideCall({ verdict: none, level: 'default', policy: 'auto', readOnly: false, builtin: false, suspended: 'the server changed: x' })).toMatchObject({ kind: 'policy', policy: 'ask-always', note: 'the server changed: x' });
  });
  it('unattended (a scheduled run): trusted and read-only-auto never widen what the policy asks', () => {
    const unattended = (verdict: RuleVerdict, level: PermissionLevel, policy: ExecutionPolicy, readOnly = false) => decideCall({ verdict, level, policy, readOnly, builtin: false, unattended: true });
    expect(unattended(none, 'trusted', 'ask-once')).toMatchObject({ kind: 'policy', policy: 'ask-once', by: 'policy' });
    expect(unattended(none, 'trusted', 'auto')).toMatchObject({ kind: 'policy', policy: 'auto' });
    expect(unattended({ action: 'ask', rule: 1, label: 'rule 1' }, 'trusted', 'auto')).toMatchObject({ kind: 'policy', policy: 'ask-always', by: 'rule' });
    expect(unattended({ action: 'deny', rule: 1, label: 'rule 1' }, 'trusted', 'auto')).toMatchObject({ kind: 'deny' });
    expect(unattended(none, 'read-only-auto', 'ask-once', true)).toMatchObject({ kind: 'policy', policy: 'ask-once' });
    expect(unattended(none, 'read-only-auto', 'auto', true)).toMatchObject({ kind: 'allow', by: 'level' });
    // Tightening still works: read-only-auto asks about an auto tool that writes; ask asks always.
    expect(unattended(none, 'read-only-auto', 'auto', false)).toMatchObject({ kind: 'policy', policy: 'ask-once' });
    expect(unattended(none, 'ask', 'auto')).toMatchObject({ kind: 'policy', policy: 'ask-always', by: 'level' });
  });
});
