// Done means, second bullet: a schedule with `--permissions trusted` cannot run a tool that a user
// rule denies or asks (nor one whose own policy asks), and a tool outside its tool set is not in
// the model's request — checked from the requests the scripted model received. In-process: the
// runtime, the scheduler (one-shot mode) and the fake OpenAI server.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ScheduleConfig } from '../../../shared/schedules.ts';
import { createRuntime, type Runtime } from '../../../electron/runtime/create-runtime.ts';
import { readAudit, auditDir } from '../../../electron/runtime/audit/audit-log.ts';
import { makeHome } from '../../e2e/support/e2e-home.ts';
import { e2eScript, offeredTools, toolMessages } from '../../e2e/support/fake-model.ts';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fake-openai-server.ts';
import { SecretStore, sessionBackend } from '../../../electron/runtime/store/secret-store.ts';

vi.setConfig({ testTimeout: 60_000 });

let fake: FakeOpenAIServer;
let home: string;
let runtime: Runtime;

const schedule = (name: string, prompt: string): ScheduleConfig => ({ name, prompt, every: '1d', permissions: 'trusted', toolSet: 'narrow', createdAt: Date.now() });

beforeAll(async () => {
  fake = await startFakeOpenAI({ script: e2eScript });
  home = makeHome({
    providerUrl: fake.url,
    settings: {
      toolRules: [
        { action: 'deny', tool: 'script_note', reason: 'notes are off limits' },
        { action: 'ask', tool: 'script_big' },
      ],
      toolSets: [{ name: 'narrow', tools: ['script_echo', 'script_note', 'script_big', 'script_xss'] }],
      schedules: [
        schedule('denied', 'call script_note {"text":"x"}'),
        schedule('asked-by-rule', 'call script_big {"lines":3}'),
        schedule('asked-by-policy', 'call script_echo {"text":"y"}'),
        schedule('auto', 'call script_xss {}'),
        { name: 'own-model', prompt: 'hello there', every: '1d', providerId: 'fake', model: 'schedule-model', createdAt: Date.now() },
      ],
    },
  });
  runtime = await createRuntime({ home, secrets: new SecretStore({ keyring: sessionBackend() }), tools: {} });
}, 60_000);

afterAll(async () => {
  await runtime?.close();
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('permissions of a scheduled run only tighten', () => {
  it('a deny rule refuses the call even at trusted; the tool never runs', async () => {
    const scheduler = await runtime.scheduler();
    const before = fake.chatRequests().length;
    const run = await scheduler.runNow('denied');
    expect(run.status).toBe('done');
    const requests = fake.chatRequests().slice(before);
    expect(toolMessages(requests.at(-1)).join('\n')).toContain('Denied by rule 1: notes are off limits');
    const audit = readAudit(auditDir(home)).filter((entry) => entry.sessionId === run.sessionId && entry.tool === 'script_note');
    expect(audit.map((entry) => [entry.decision, entry.by])).toEqual([['denied', 'rule']]);
  });

  it('an ask rule and a tool\'s own ask policy pause the run at trusted instead of running', async () => {
    const scheduler = await runtime.scheduler();
    const byRule = await scheduler.runNow('asked-by-rule');
    expect(byRule.status).toBe('waiting');
    expect(byRule.waitingOn).toEqual([expect.objectContaining({ kind: 'approval', toolName: 'script_big' })]);
    const byPolicy = await scheduler.runNow('asked-by-policy');
    expect(byPolicy.status).toBe('waiting');
    expect(byPolicy.waitingOn).toEqual([expect.objectContaining({ kind: 'approval', toolName: 'script_echo' })]);
    const ran = readAudit(auditDir(home)).filter((entry) => entry.decision === 'allowed' && (entry.tool === 'script_big' || entry.tool === 'script_echo'));
    expect(ran).toEqual([]);
  });

  it('a tool whose policy is auto still runs at trusted', async () => {
    const run = await (await runtime.scheduler()).runNow('auto');
    expect(run.status).toBe('done');
    expect(readAudit(auditDir(home)).some((entry) => entry.sessionId === run.sessionId && entry.tool === 'script_xss' && entry.decision === 'allowed')).toBe(true);
  });

  it('offers the model only the tool set\'s tools', async () => {
    const offered = new Set(fake.chatRequests().flatMap((request) => offeredTools(request)));
    expect(offered.has('script_echo')).toBe(true);
    expect(offered.has('script_slow')).toBe(false);
    expect(offered.has('script_review')).toBe(false);
    for (const request of fake.chatRequests()) expect(offeredTools(request).filter((name) => name.startsWith('script_') && !['script_echo', 'script_note', 'script_big', 'script_xss'].includes(name))).toEqual([]);
  });

  it('answering the waiting card in the chat itself resumes the run (not only the Inbox)', async () => {
    const scheduler = await runtime.scheduler();
    const waiting = scheduler.store.runs('asked-by-policy').at(-1)!;
    expect(waiting.status).toBe('waiting');
    const chat = (await runtime.sessions()).open(waiting.sessionId);
    const ended = new Promise<string>((resolve) => {
      const off = scheduler.onEvent(() => {
        const run = scheduler.store.run(waiting.id);
        if (run?.endedAt) {
          off();
          resolve(run.status);
        }
      });
    });
    const [card] = chat.pendingApprovals();
    expect(card).toMatchObject({ toolName: 'script_echo' });
    expect(chat.answerApproval(card!.id, { decision: 'once' })).toBe(true);
    expect(await ended).toBe('done');
    expect(scheduler.inbox().some((item) => item.runId === waiting.id)).toBe(false);
  });

  it('asks the schedule\'s own model', async () => {
    const before = fake.chatRequests().length;
    const run = await (await runtime.scheduler()).runNow('own-model');
    expect(run.status).toBe('done');
    expect(fake.chatRequests().slice(before).map((request) => request.body.model)).toEqual(['schedule-model']);
  });
});
