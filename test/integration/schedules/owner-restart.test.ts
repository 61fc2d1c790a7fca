// A run paused on a question outlives the process that owned the schedules: the next owner goes
// on with it. What it must not do then: notify the user again about a question already notified
// (the Inbox item records it), or run again a call whose result was waiting for approval (the
// result is shown for approval again; a tool here counts its executions in a file). Two questions
// of one run survive a restart and are answered one at a time.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRuntime, type Runtime } from '../../../electron/runtime/create-runtime.ts';
import type { Scheduler, SchedulerEvent } from '../../../electron/runtime/schedules/scheduler.ts';
import { SecretStore, sessionBackend } from '../../../electron/runtime/store/secret-store.ts';
import type { ScheduleConfig } from '../../../shared/schedules.ts';
import { makeHome } from '../../e2e/support/e2e-home.ts';
import { e2eScript, FINAL_PREFIX } from '../../e2e/support/fake-model.ts';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fake-openai-server.ts';
import { addCountingTool } from '../../support/schedule-tools.ts';

vi.setConfig({ testTimeout: 90_000 });

let fake: FakeOpenAIServer;
const runtimes: Runtime[] = [];
const folders: string[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI({ script: e2eScript });
});

afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

afterAll(async () => {
  await fake?.close();
});

/** A home with the e2e tools and the counting one; tools run in `work` (outside /tmp: the sandbox has its own /tmp). */
function home(schedules: ScheduleConfig[]): { home: string; work: string } {
  const work = mkdtempSync('/var/tmp/td-sched-work-');
  const made = makeHome({
    providerUrl: fake.url,
    settings: { workingDir: work, schedules, permissionOverrides: { script_count: { executionPolicy: 'auto', resultApprovalPolicy: 'always' } } },
  });
  addCountingTool(made);
  folders.push(work, made);
  return { home: made, work };
}

/** An owner of the home's schedules (as the app or `serve` is), with every event it raised. */
async function owner(homeDir: string): Promise<{ runtime: Runtime; scheduler: Scheduler; events: SchedulerEvent[] }> {
  const runtime = await createRuntime({ home: homeDir, secrets: new SecretStore({ keyring: sessionBackend() }), tools: {} });
  runtimes.push(runtime);
  const scheduler = await runtime.scheduler();
  const events: SchedulerEvent[] = [];
  scheduler.onEvent((event) => events.push(event));
  await scheduler.start();
  expect(scheduler.owner).toBe(true);
  return { runtime, scheduler, events };
}

/** Stops an owner the way quitting the app does. */
async function stop(runtime: Runtime): Promise<void> {
  runtimes.splice(runtimes.indexOf(runtime), 1);
  await runtime.close();
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const notices = (events: SchedulerEvent[]) => events.filter((e) => e.type === 'notice');
const pauses = (events: SchedulerEvent[]) => events.filter((e) => e.type === 'paused');

describe('an owner restart while a run waits', () => {
  it('notifies a question once: the next owners ask it again without a new notification', async () => {
    const { home: h } = home([{ name: 'ask', prompt: 'call script_echo {"text":"once"}', every: '1d' }]);
    const first = await owner(h);
    const paused = await first.scheduler.runNow('ask');
    expect(paused.status).toBe('waiting');
    expect(notices(first.events)).toHaveLength(1);
    const [item] = first.scheduler.inbox();
    expect(item!.notifiedAt).toBeGreaterThan(0);
    await stop(first.runtime);

    for (const round of [1, 2]) {
      const next = await owner(h);
      await until(() => pauses(next.events).length > 0, `the question asked again (restart ${round})`);
      expect(notices(next.events), `no notification at restart ${round}`).toEqual([]);
      expect(next.scheduler.inbox().map((i) => i.id)).toEqual([item!.id]);
      if (round === 1) await stop(next.runtime);
      else {
        const done = await next.scheduler.answer(item!.id, { decision: 'approve' });
        expect(done.status).toBe('done');
        expect(notices(next.events)).toEqual([]);
      }
    }
  });

  it('two questions of one run, after a restart: answering the first returns with the run waiting on the second', async () => {
    const { home: h } = home([{ name: 'pair', prompt: 'parallel 2', every: '1d' }]);
    const first = await owner(h);
    await first.scheduler.runNow('pair');
    await until(() => first.scheduler.inbox().length === 2, 'both questions in the Inbox');
    const [one, two] = first.scheduler.inbox();
    await stop(first.runtime);

    const next = await owner(h);
    await until(() => pauses(next.events).length >= 2, 'both questions asked again');
    const after = await next.scheduler.answer(one!.id, { decision: 'approve' });
    expect(after.status).toBe('waiting');
    expect(after.waitingOn.map((i) => i.id)).toEqual([two!.id]);
    expect((await next.scheduler.answer(two!.id, { decision: 'approve' })).status).toBe('done');
    expect(notices(next.events)).toEqual([]);
  });

  it('a result waiting for approval is shown again, never run again', async () => {
    const { home: h, work } = home([{ name: 'review', prompt: 'call script_count {}', every: '1d' }]);
    const first = await owner(h);
    const paused = await first.scheduler.runNow('review');
    expect(paused.status).toBe('waiting');
    const [item] = first.scheduler.inbox();
    expect(item).toMatchObject({ kind: 'result-approval', toolName: 'script_count' });
    expect(readFileSync(join(work, 'count.txt'), 'utf8')).toBe('ran\n');
    await stop(first.runtime);

    const next = await owner(h);
    await until(() => pauses(next.events).length > 0, 'the result shown again');
    expect(next.scheduler.inbox()).toMatchObject([{ id: item!.id, kind: 'result-approval' }]);
    // The card shows the saved result: the same text the first owner asked about.
    const sessions = await next.runtime.sessions();
    const pending = sessions.open(paused.sessionId).pendingApprovals();
    expect(pending).toMatchObject([{ type: 'result', toolName: 'script_count', result: { status: 'SUCCESS', text: expect.stringContaining(`count 1 in ${work}`) }, note: expect.stringContaining('not run again') }]);
    const done = await next.scheduler.answer(item!.id, { decision: 'approve' });
    expect(done.status).toBe('done');
    expect(readFileSync(join(work, 'count.txt'), 'utf8')).toBe('ran\n'); // ran once, in all
    const tool = sessions.open(paused.sessionId).messages().filter((m) => m.role === 'tool');
    expect(tool).toHaveLength(1);
    expect(tool[0]!.content).toContain('count 1');
    const last = sessions.open(paused.sessionId).messages().at(-1)!;
    expect(last.content).toContain(`${FINAL_PREFIX} count 1`);
  });
});
