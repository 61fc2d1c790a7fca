import { describe, expect, it } from 'vitest';
import type { ApprovalDecision, ApprovalRequest, ToolExecuteResult } from '../../../../shared/tools.ts';
import { CallRun } from '../../../../electron/runtime/host/mcp-server/call-run.ts';

const req = (type: 'execution' | 'result'): ApprovalRequest => ({ id: type, type, sessionId: 's', callId: 'c', toolName: 't', groupName: 'g', args: {}, policy: 'ask-always' });

describe('CallRun', () => {
  it('hands out each question as a step and resumes with the answer, across rounds', async () => {
    let ask!: (r: ApprovalRequest) => Promise<ApprovalDecision>;
    const run = new CallRun(async () => {
      const first = await ask(req('execution'));
      if (first.decision === 'reject') return { status: 'EXECUTION_REJECTED', rejectReason: 'no', finalText: 'no' };
      const second = await ask(req('result'));
      return { status: 'SUCCESS', finalText: `done after ${second.decision}` };
    });
    ask = (r) => run.ask(r, new AbortController().signal);
    const round = () => ({ signal: new AbortController().signal });
    const a = await run.next(round());
    expect(a).toMatchObject({ kind: 'ask', request: { type: 'execution' } });
    run.answer({ decision: 'once' });
    const b = await run.next(round());
    expect(b).toMatchObject({ kind: 'ask', request: { type: 'result' } });
    run.answer({ decision: 'session' });
    const c = await run.next(round());
    expect(c).toEqual({ kind: 'done', result: { status: 'SUCCESS', finalText: 'done after session' } });
  });

  it("hands out the tool's own question as an elicit step and gives the tool the client's answer", async () => {
    const form = { mode: 'form' as const, message: 'Who are you?', requestedSchema: { type: 'object' as const, properties: { value: { type: 'string' as const } } } };
    const run: CallRun = new CallRun(async (signal) => {
      const answer = await run.elicit(form, signal);
      return { status: 'SUCCESS', finalText: `got ${JSON.stringify(answer)}` };
    });
    const round = () => ({ signal: new AbortController().signal });
    expect(await run.next(round())).toEqual({ kind: 'elicit', params: form });
    expect(run.openQuestion).toBe('elicit');
    run.answer({ decision: 'once' }); // an approval answer does not settle a tool's question
    run.answerElicitation({ action: 'accept', content: { value: 'Ada' } });
    expect(await run.next(round())).toEqual({ kind: 'done', result: { status: 'SUCCESS', finalText: 'got {"action":"accept","content":{"value":"Ada"}}' } });
  });

  it('aborting the open round aborts the run and rejects a pending question', async () => {
    let seen: AbortSignal | undefined;
    let decision: ApprovalDecision | undefined;
    const run: CallRun = new CallRun(async (signal) => {
      seen = signal;
      decision = await run.ask(req('execution'), signal);
      return { status: 'ERROR', error: 'stopped', finalText: 'stopped' } satisfies ToolExecuteResult;
    });
    const controller = new AbortController();
    const step = run.next({ signal: controller.signal });
    expect((await step).kind).toBe('ask');
    const next = run.next({ signal: controller.signal });
    controller.abort();
    expect((await next).kind).toBe('done');
    expect(seen?.aborted).toBe(true);
    expect(decision?.decision).toBe('reject');
  });

  it('sends progress to the round that is open only', async () => {
    const messages: string[] = [];
    let update!: (u: { text?: string; details?: unknown }) => void;
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const run = new CallRun(async (_signal, onUpdate) => {
      update = onUpdate;
      started();
      await new Promise<void>((r) => (release = r));
      return { status: 'SUCCESS', finalText: 'ok' };
    });
    const done = run.next({ signal: new AbortController().signal, progress: (_n, m) => messages.push(m) });
    await running;
    update({ text: 'half' });
    update({ details: { n: 1 } });
    release();
    await done;
    update({ text: 'late' });
    expect(messages).toEqual(['half', '{"n":1}']);
  });

  it("numbers progress by the run: after a question's round trip the numbers go on rising", async () => {
    const sent: Array<[number, string]> = [];
    const form = { mode: 'form' as const, message: 'Which?', requestedSchema: { type: 'object' as const, properties: {} } };
    const run: CallRun = new CallRun(async (signal, onUpdate) => {
      onUpdate({ text: 'one' });
      onUpdate({ text: 'two' });
      await run.elicit(form, signal);
      onUpdate({ text: 'three' });
      return { status: 'SUCCESS', finalText: 'ok' };
    });
    const round = () => ({ signal: new AbortController().signal, progress: (n: number, m: string) => sent.push([n, m]) });
    expect((await run.next(round())).kind).toBe('elicit');
    run.answerElicitation({ action: 'accept', content: {} });
    expect((await run.next(round())).kind).toBe('done');
    expect(sent).toEqual([[1, 'one'], [2, 'two'], [3, 'three']]);
  });
});
