// The scheduler's own loop in service mode, driven through its clock seam (createRuntime's
// `clock`) instead of real minutes: nothing runs before the first interval, the slot runs on time
// (not late) when the clock reaches it, and a new start ten minutes later runs the missed slots
// once, late. A second scheduler on the home meanwhile stands by and runs nothing.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRuntime, type Runtime } from '../../../electron/runtime/create-runtime.ts';
import { RunStore } from '../../../electron/runtime/schedules/run-store.ts';
import { SecretStore, sessionBackend } from '../../../electron/runtime/store/secret-store.ts';
import { makeHome } from '../../e2e/support/e2e-home.ts';
import { e2eScript } from '../../e2e/support/fake-model.ts';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fake-openai-server.ts';

vi.setConfig({ testTimeout: 60_000 });

let fake: FakeOpenAIServer;
let home: string;
let offset = 0;
const clock = { now: () => Date.now() + offset };
const T0 = Date.now();
const runtimes: Runtime[] = [];
const logged: string[] = [];

const open = async (): Promise<Runtime> => {
  const runtime = await createRuntime({ home, secrets: new SecretStore({ keyring: sessionBackend() }), tools: {}, clock, watchSettings: true, log: (message) => logged.push(message) });
  runtimes.push(runtime);
  return runtime;
};

/** Waits until `count` runs ended, reading the records on disk. */
async function ended(count: number): Promise<ReturnType<RunStore['runs']>> {
  const store = new RunStore(home);
  for (let i = 0; i < 200; i++) {
    const runs = store.runs('tick').filter((run) => run.endedAt !== undefined);
    if (runs.length >= count) return runs;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return store.runs('tick');
}

beforeAll(async () => {
  fake = await startFakeOpenAI({ script: e2eScript });
  home = makeHome({ providerUrl: fake.url, settings: { schedules: [{ name: 'tick', prompt: 'hello', every: '1m', createdAt: T0 }, { name: 'typo', prompt: 'x', every: '1 minute' }] } });
});

afterAll(async () => {
  for (const runtime of runtimes) await runtime.close();
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the scheduler loop on a test clock', () => {
  it('runs the first slot when the clock reaches it, not before, and once with a standby beside it', async () => {
    const owner = await (await open()).scheduler();
    await owner.start();
    expect(owner.owner).toBe(true);
    // The broken entry is said once, with its place and field; the good one runs regardless.
    expect(logged.filter((line) => line.startsWith('a schedule cannot run: schedules[1].every: "1 minute" is not a duration'))).toHaveLength(1);
    const standby = await (await open()).scheduler();
    await standby.start();
    expect(standby.owner).toBe(false);
    expect(owner.list()[0]!.nextRunAt).toBe(T0 + 60_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(new RunStore(home).runs('tick')).toEqual([]);

    offset = T0 + 60_500 - Date.now();
    runtimes[0]!.settings.update({ systemPrompt: 'wake up' }); // any settings change wakes the loop
    const [run] = await ended(1);
    expect(run).toMatchObject({ status: 'done', trigger: 'timer', slot: T0 + 60_000 });
    expect(run!.late).toBeUndefined();
    expect(owner.list()[0]!.nextRunAt).toBe(T0 + 120_000);
    expect(new RunStore(home).runs('tick')).toHaveLength(1);
  });

  it('a start ten minutes later runs the missed slots once, late', async () => {
    for (const runtime of runtimes.splice(0)) await runtime.close();
    offset = T0 + 60_500 + 10 * 60_000 - Date.now();
    const restarted = await (await open()).scheduler();
    await restarted.start();
    const runs = await ended(2);
    expect(runs).toHaveLength(2);
    expect(runs[1]).toMatchObject({ status: 'done', late: true, slot: T0 + 2 * 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(new RunStore(home).runs('tick')).toHaveLength(2);
    expect(restarted.list()[0]!.nextRunAt).toBe(T0 + 12 * 60_000);
  });
});
