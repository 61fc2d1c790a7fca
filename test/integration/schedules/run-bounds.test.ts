// A run's bounds (settings scheduleLimits): too many tool calls, or too long a run, stops it
// with the reason recorded — before the extra calls run.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditDir, readAudit } from '../../../electron/runtime/audit/audit-log.ts';
import { createRuntime, type Runtime } from '../../../electron/runtime/create-runtime.ts';
import { SecretStore, sessionBackend } from '../../../electron/runtime/store/secret-store.ts';
import { makeHome } from '../../e2e/support/e2e-home.ts';
import { e2eScript } from '../../e2e/support/fake-model.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer } from '../../support/fake-openai-server.ts';

vi.setConfig({ testTimeout: 60_000 });

let fake: FakeOpenAIServer;
/** Requests of the "flaky" prompt answered with a server error so far. */
let flakyFailures = 0;
let home: string;
let runtime: Runtime;

beforeAll(async () => {
  fake = await startFakeOpenAI({
    script: (request, turn) => {
      const said = request.body.messages.at(-1)?.content;
      if (said === 'two at once') return fakeTurn.parallel([{ name: 'script_xss', args: {} }, { name: 'script_xss', args: {} }]);
      if (said === 'fail please') return fakeTurn.error(400, 'the model refuses');
      // Fails all four attempts of the provider's own quick retries, then answers.
      if (said === 'flaky' && flakyFailures < 4) {
        flakyFailures += 1;
        return fakeTurn.error(503, 'overloaded');
      }
      return e2eScript(request, turn);
    },
  });
  home = makeHome({
    providerUrl: fake.url,
    settings: {
      scheduleLimits: { maxToolCalls: 1, maxRunSeconds: 8, providerRetrySeconds: 0.2 },
      schedules: [
        { name: 'greedy', prompt: 'two at once', every: '1d', createdAt: Date.now() },
        { name: 'slow', prompt: 'call script_slow {"seconds":30}', every: '1d', createdAt: Date.now() },
        { name: 'broken', prompt: 'fail please', every: '1d', createdAt: Date.now() },
        { name: 'flaky', prompt: 'flaky', every: '1d', createdAt: Date.now() },
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

describe('bounds of a scheduled run', () => {
  it('stops at the tool-call limit before the calls run', async () => {
    const run = await (await runtime.scheduler()).runNow('greedy');
    expect(run).toMatchObject({ status: 'failed', calls: 2 });
    expect(run.reason).toContain('more tool calls than the limit (1; scheduleLimits.maxToolCalls)');
    // The turn is aborted as the step arrives: its calls end at once, aborted, none ran to a result.
    expect(readAudit(auditDir(home)).filter((entry) => entry.sessionId === run.sessionId && entry.status === 'SUCCESS')).toEqual([]);
  });

  it('stops a run that goes on longer than its wall time', async () => {
    const started = Date.now();
    const run = await (await runtime.scheduler()).runNow('slow');
    expect(run.status).toBe('failed');
    expect(run.reason).toContain('ran longer than 8 s (scheduleLimits.maxRunSeconds)');
    expect(Date.now() - started).toBeLessThan(25_000);
  });

  it('marks a run whose model failed as failed, with the model\'s error', async () => {
    const scheduler = await runtime.scheduler();
    const notices: string[] = [];
    const off = scheduler.onEvent((event) => {
      if (event.type === 'notice') notices.push(event.run.status);
    });
    const run = await scheduler.runNow('broken');
    off();
    expect(run.status).toBe('failed');
    expect(run.reason).toContain('the model refuses');
    expect(notices).toEqual(['failed']);
  });

  it('retries a run whose model failed with a server error, after a back-off, then ends done', async () => {
    const run = await (await runtime.scheduler()).runNow('flaky');
    expect(run).toMatchObject({ status: 'done', retries: 1 });
    expect(flakyFailures).toBe(4);
  });

  it('starts one run of a schedule at a time, even when asked twice at once', async () => {
    const scheduler = await runtime.scheduler();
    const before = scheduler.store.runs('broken').length;
    const [a, b] = await Promise.allSettled([scheduler.runNow('broken'), scheduler.runNow('broken')]);
    expect([a.status, b.status].sort()).toEqual(['fulfilled', 'rejected']);
    expect(String((a.status === 'rejected' ? a : (b as PromiseRejectedResult)).reason)).toContain('is starting a run right now');
    expect(scheduler.store.runs('broken')).toHaveLength(before + 1);
  });
});
