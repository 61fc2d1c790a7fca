import { describe, expect, it, vi } from 'vitest';
import type { ApprovalDecision, ApprovalRequest, ToolPermission } from '../../../shared/tools.ts';
import { ToolExecutor } from '../../../electron/runtime/tools/tool-executor.ts';
import type { ApprovalCallback, PermissionStore } from '../../../electron/runtime/tools/types.ts';
import { makeGroup, makeTool } from './make-tool.ts';

/** An approval callback answering from a queue and recording every request. */
function scripted(...answers: ApprovalDecision[]) {
  const requests: ApprovalRequest[] = [];
  const approve: ApprovalCallback = async (request) => {
    requests.push(request);
    return answers.shift() ?? { decision: 'reject', reason: 'script ran out' };
  };
  return { approve, requests };
}

function memoryStore(initial: Record<string, ToolPermission> = {}): PermissionStore & { data: Record<string, ToolPermission> } {
  const data = { ...initial };
  return { data, get: (name) => data[name], set: (name, permission) => void (data[name] = permission) };
}

function setup(permission: ToolPermission, options: Partial<ConstructorParameters<typeof ToolExecutor>[0]> = {}) {
  const run = vi.fn(async (args: Record<string, unknown>) => ({ data: `ran ${JSON.stringify(args)}` }));
  const executor = new ToolExecutor({ sessionId: 's1', ...options });
  executor.registerToolGroup(makeGroup('g', [makeTool('rm', run, { permission })]));
  executor.toggleGroupEnabled('g', true);
  return { executor, run };
}

describe('execution approval', () => {
  it('rejects with a clear reason when no approval callback is set, without running', async () => {
    const { executor, run } = setup({ executionPolicy: 'ask-once' });
    const result = await executor.execute('rm', { path: '/x' });
    expect(result.status).toBe('EXECUTION_REJECTED');
    expect(result.rejectReason).toContain('no approval handler');
    expect(result.finalText).toContain('no approval handler');
    expect(run).not.toHaveBeenCalled();
  });

  it('sends a request with the resolved arguments, group, type and policy', async () => {
    const { approve, requests } = scripted({ decision: 'once' });
    const { executor } = setup({ executionPolicy: 'ask-always' }, { approve });
    executor.variables.add('p', '/tmp/file', 'USER_ADD');
    await executor.execute('rm', { path: '$VAR_REF{{p}}', limit: 10 }, { callId: 'c7' });
    expect(requests[0]).toMatchObject({
      type: 'execution',
      sessionId: 's1',
      callId: 'c7',
      toolName: 'rm',
      groupName: 'g',
      args: { path: '/tmp/file' },
      policy: 'ask-always',
    });
    expect(requests[0]!.id).toEqual(expect.any(String));
  });

  it('ask-once asks once per tool + arguments, whatever the key order', async () => {
    const { approve, requests } = scripted({ decision: 'once' }, { decision: 'once' });
    const { executor, run } = setup({ executionPolicy: 'ask-once' }, { approve });
    await executor.execute('rm', { a: 1, b: 2 });
    await executor.execute('rm', { b: 2, a: 1 });
    expect(requests).toHaveLength(1);
    await executor.execute('rm', { a: 2 });
    expect(requests).toHaveLength(2);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('ask-once shows one card for parallel identical calls', async () => {
    let answer: ((d: ApprovalDecision) => void) | undefined;
    const requests: ApprovalRequest[] = [];
    const approve: ApprovalCallback = (request) => {
      requests.push(request);
      return new Promise((resolve) => (answer = resolve));
    };
    const { executor, run } = setup({ executionPolicy: 'ask-once' }, { approve });
    const both = Promise.all([executor.execute('rm', { a: 1 }), executor.execute('rm', { a: 1 })]);
    await new Promise((r) => setTimeout(r, 5));
    answer!({ decision: 'once' });
    expect((await both).map((r) => r.status)).toEqual(['SUCCESS', 'SUCCESS']);
    expect(requests).toHaveLength(1);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('ask-always asks every time after "once", but not after "session" for the same arguments', async () => {
    const { approve, requests } = scripted({ decision: 'once' }, { decision: 'session' });
    const { executor } = setup({ executionPolicy: 'ask-always' }, { approve });
    await executor.execute('rm', { a: 1 });
    await executor.execute('rm', { a: 1 });
    await executor.execute('rm', { a: 1 });
    expect(requests).toHaveLength(2);
  });

  it('"always" persists an auto override through the permission store, keeping other fields', async () => {
    const store = memoryStore({ rm: { resultApprovalPolicy: 'never' } });
    const { approve, requests } = scripted({ decision: 'always' });
    const { executor } = setup({ executionPolicy: 'ask-always' }, { approve, permissions: store });
    await executor.execute('rm', { a: 1 });
    await executor.execute('rm', { a: 2 });
    expect(requests).toHaveLength(1);
    expect(store.data.rm).toEqual({ resultApprovalPolicy: 'never', executionPolicy: 'auto' });
    expect(executor.effectivePermission('rm')?.executionPolicy).toBe('auto');
  });

  it('"always" still holds for the session without a permission store', async () => {
    const { approve, requests } = scripted({ decision: 'always' });
    const { executor } = setup({ executionPolicy: 'ask-always' }, { approve });
    await executor.execute('rm', { a: 1 });
    await executor.execute('rm', { a: 2 });
    expect(requests).toHaveLength(1);
  });

  it('a rejection reaches the model with its reason and is asked again next time', async () => {
    const { approve, requests } = scripted({ decision: 'reject', reason: 'not that folder' }, { decision: 'once' });
    const { executor, run } = setup({ executionPolicy: 'ask-once' }, { approve });
    const rejected = await executor.execute('rm', { a: 1 });
    expect(rejected).toMatchObject({ status: 'EXECUTION_REJECTED', rejectReason: 'not that folder' });
    expect(rejected.finalText).toContain('not that folder');
    expect(run).not.toHaveBeenCalled();
    const second = await executor.execute('rm', { a: 1 });
    expect(second.status).toBe('SUCCESS');
    expect(requests).toHaveLength(2);
  });

  it('a rejection is remembered for the session only when asked', async () => {
    const { approve, requests } = scripted({ decision: 'reject', reason: 'never this', remember: 'session' });
    const { executor, run } = setup({ executionPolicy: 'ask-always' }, { approve });
    await executor.execute('rm', { a: 1 });
    const again = await executor.execute('rm', { a: 1 });
    expect(again.status).toBe('EXECUTION_REJECTED');
    expect(again.finalText).toContain('never this');
    expect(requests).toHaveLength(1);
    expect(run).not.toHaveBeenCalled();
  });

  it('rejects when the signal aborts while the approval is pending', async () => {
    let seen: AbortSignal | undefined;
    const approve: ApprovalCallback = (_r, signal) => {
      seen = signal;
      return new Promise(() => {});
    };
    const { executor, run } = setup({ executionPolicy: 'ask-once' }, { approve });
    const controller = new AbortController();
    const pending = executor.execute('rm', { a: 1 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    const result = await pending;
    expect(result.status).toBe('EXECUTION_REJECTED');
    expect(result.rejectReason).toMatch(/aborted/i);
    expect(seen?.aborted).toBe(true);
    expect(run).not.toHaveBeenCalled();
  });

  it('closing the session rejects pending approvals', async () => {
    const { executor } = setup({ executionPolicy: 'ask-once' }, { approve: () => new Promise(() => {}) });
    const pending = executor.execute('rm', {});
    await new Promise((r) => setTimeout(r, 5));
    executor.close();
    expect((await pending).status).toBe('EXECUTION_REJECTED');
  });

  it('user override beats the tool, the tool beats the group default, defaults are ask-once', async () => {
    const store = memoryStore({ rm: { executionPolicy: 'auto' } });
    const { executor, run } = setup({ executionPolicy: 'ask-always' }, { permissions: store });
    expect((await executor.execute('rm', {})).status).toBe('SUCCESS');
    expect(run).toHaveBeenCalledTimes(1);

    const executor2 = new ToolExecutor({ sessionId: 's' });
    executor2.registerToolGroup(
      makeGroup(
        'g',
        [
          makeTool('t1', undefined, { permission: undefined }),
          makeTool('t2', undefined, { permission: { executionPolicy: 'ask-always' } }),
        ],
        { defaultPermission: { executionPolicy: 'auto' } },
      ),
    );
    executor2.registerToolGroup(makeGroup('plain', [makeTool('t3', undefined, { permission: undefined })]));
    expect(executor2.effectivePermission('t1')?.executionPolicy).toBe('auto');
    expect(executor2.effectivePermission('t2')?.executionPolicy).toBe('ask-always');
    expect(executor2.effectivePermission('t3')).toEqual({ executionPolicy: 'ask-once', resultApprovalPolicy: 'never' });
    expect(executor2.effectivePermission('ReadVar')?.executionPolicy).toBe('auto');
  });

  it('exports and imports the ask-once memory (a new executor does not ask again)', async () => {
    const answers = scripted({ decision: 'once' }, { decision: 'reject', remember: 'session' });
    const first = setup({ executionPolicy: 'ask-once' }, { approve: answers.approve });
    await first.executor.execute('rm', { a: 1 });
    await first.executor.execute('rm', { a: 2 });
    const data = JSON.parse(JSON.stringify(first.executor.exportApprovalMemory()));
    const { approve, requests } = scripted();
    const second = setup({ executionPolicy: 'ask-once' }, { approve });
    expect(second.executor.importApprovalMemory(data)).toBe(2);
    expect((await second.executor.execute('rm', { a: 1 })).status).toBe('SUCCESS');
    expect((await second.executor.execute('rm', { a: 2 })).status).toBe('EXECUTION_REJECTED');
    expect(requests).toHaveLength(0);
  });

  it('setApprovalCallback attaches a callback later', async () => {
    const { executor } = setup({ executionPolicy: 'ask-always' });
    expect((await executor.execute('rm', {})).status).toBe('EXECUTION_REJECTED');
    executor.setApprovalCallback(scripted({ decision: 'once' }).approve);
    expect((await executor.execute('rm', {})).status).toBe('SUCCESS');
  });
});

describe('result approval', () => {
  it('"always" asks with the text the model would see; a rejection withholds it and its variables', async () => {
    const { approve, requests } = scripted({ decision: 'reject', reason: 'contains secrets' });
    const { executor } = setup({ executionPolicy: 'auto', resultApprovalPolicy: 'always' }, { approve });
    const result = await executor.execute('rm', { a: 1 }, { callId: 'c1' });
    expect(requests[0]).toMatchObject({ type: 'result', policy: 'always', result: { status: 'SUCCESS', text: 'ran {"a":1}' } });
    expect(result).toMatchObject({ status: 'RESULT_REJECTED', rejectReason: 'contains secrets' });
    expect(result.finalText).toContain('contains secrets');
    expect(result.finalText).not.toContain('ran');
    expect(executor.variables.has('rm_c1_result')).toBe(false);
    expect(executor.variables.has('rm_c1_args')).toBe(false);
  });

  it('an approved result passes through unchanged', async () => {
    const { approve } = scripted({ decision: 'once' });
    const { executor } = setup({ executionPolicy: 'auto', resultApprovalPolicy: 'always' }, { approve });
    expect(await executor.execute('rm', {})).toMatchObject({ status: 'SUCCESS', finalText: 'ran {}' });
  });

  it('"on-error" asks only about errors', async () => {
    const { approve, requests } = scripted({ decision: 'once' });
    const executor = new ToolExecutor({ sessionId: 's', approve });
    const permission = { executionPolicy: 'auto' as const, resultApprovalPolicy: 'on-error' as const };
    const failing = makeTool(
      'bad',
      async () => {
        throw new Error('x');
      },
      { permission },
    );
    executor.registerToolGroup(makeGroup('g', [makeTool('ok', undefined, { permission }), failing]));
    executor.toggleGroupEnabled('g', true);
    await executor.execute('ok', {});
    expect(requests).toHaveLength(0);
    expect((await executor.execute('bad', {})).status).toBe('ERROR');
    expect(requests[0]).toMatchObject({ type: 'result', result: { status: 'ERROR', text: 'Error: x' } });
  });

  it('no callback means the result is withheld', async () => {
    const { executor } = setup({ executionPolicy: 'auto', resultApprovalPolicy: 'always' });
    expect((await executor.execute('rm', {})).status).toBe('RESULT_REJECTED');
  });

  it('"always" on a result stops asking about this tool\'s results', async () => {
    const store = memoryStore();
    const { approve, requests } = scripted({ decision: 'always' });
    const { executor } = setup({ executionPolicy: 'auto', resultApprovalPolicy: 'always' }, { approve, permissions: store });
    await executor.execute('rm', { a: 1 });
    await executor.execute('rm', { a: 2 });
    expect(requests).toHaveLength(1);
    expect(store.data.rm).toEqual({ resultApprovalPolicy: 'never' });
  });
});

describe('askAgain (a call a restart cut off)', () => {
  it('asks with its note although the policy, the memory or an allow rule would run it; a deny still wins', async () => {
    const { approve, requests } = scripted({ decision: 'session' }, { decision: 'once' }, { decision: 'once' });
    const { executor, run } = setup({ executionPolicy: 'auto' }, { approve });
    await executor.execute('rm', { path: '/a' }, { askAgain: 'it may have run in part' });
    expect(requests.map((r) => r.note)).toEqual(['it may have run in part']);
    // Remembered for the session now: a plain call runs, askAgain still asks.
    await executor.execute('rm', { path: '/a' }, { askAgain: 'again' });
    expect(requests.map((r) => r.note)).toEqual(['it may have run in part', 'again']);
    expect(run).toHaveBeenCalledTimes(2);

    const allowed = setup({ executionPolicy: 'ask-always' }, { approve, guard: { decide: () => ({ kind: 'allow', by: 'rule', detail: 'allow rule' }) } });
    await allowed.executor.execute('rm', { path: '/b' }, { askAgain: 'allowed by a rule, asked all the same' });
    expect(requests.at(-1)!.note).toBe('allowed by a rule, asked all the same');

    const denied = setup({ executionPolicy: 'auto' }, { approve, guard: { decide: () => ({ kind: 'deny', reason: 'never', by: 'rule', detail: 'deny rule' }) } });
    const result = await denied.executor.execute('rm', { path: '/c' }, { askAgain: 'x' });
    expect(result.status).toBe('EXECUTION_REJECTED');
    expect(requests).toHaveLength(3);
    expect(denied.run).not.toHaveBeenCalled();
  });
});
