// With no app or serve running, the CLI owns the home's schedules for the command: `schedule run`
// pauses and exits (the chat keeps the question), `inbox approve` resumes the run in its own
// process, and `schedule run-due` runs what is due once, marked late, then exits.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ScheduleRun } from '../../../shared/schedules.ts';
import { RunStore } from '../../../electron/runtime/schedules/run-store.ts';
import { liveHolder } from '../../../electron/runtime/schedules/scheduler-lock.ts';
import { openSettingsStore } from '../../../electron/runtime/store/settings-store.ts';
import { makeHome } from '../../e2e/support/e2e-home.ts';
import { e2eScript } from '../../e2e/support/fake-model.ts';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fake-openai-server.ts';
import { runCli } from '../../support/run-cli.ts';

vi.setConfig({ testTimeout: 120_000 });

let fake: FakeOpenAIServer;
let home: string;

beforeAll(async () => {
  fake = await startFakeOpenAI({ script: e2eScript });
  home = makeHome({ providerUrl: fake.url });
});

afterAll(async () => {
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('schedules from the command line alone', () => {
  it('pauses in one process and resumes in another on `inbox approve`', async () => {
    expect((await runCli(home, ['schedule', 'add', 'ask', '--every', '1d', '--prompt', 'call script_echo {"text":"later"}'])).code).toBe(0);
    const ran = await runCli(home, ['schedule', 'run', 'ask']);
    expect(ran.stdout).toMatch(/^run-\w+ waiting\n {2}waiting: q-\w+ {2}ask /);
    expect(liveHolder(home)).toBeUndefined(); // the command released the home when it ended
    const id = /(q-\w+)/.exec(ran.stdout)![1]!;
    const inbox = await runCli(home, ['inbox']);
    expect(inbox.stdout).toContain(`${id}  ask  `);
    expect(inbox.stdout).toContain('run script_echo {"text":"later"}');

    const approved = await runCli(home, ['inbox', 'approve', id]);
    expect(approved.stdout).toMatch(/^run-\w+ done/);
    const [run] = new RunStore(home).runs('ask');
    expect(run).toMatchObject({ status: 'done', calls: 1, waitingOn: [] });
    expect((await runCli(home, ['inbox', 'approve', id])).stderr).toContain(`no question "${id}" in the Inbox`);
  });

  it('run-due runs a schedule whose time passed once, late, and nothing that is not due', async () => {
    const settings = openSettingsStore(home);
    settings.update({ schedules: [...(settings.get().schedules ?? []), { name: 'overdue', prompt: 'hello', every: '1h', createdAt: Date.now() - 5 * 3_600_000 }] });
    settings.close();
    const due = await runCli(home, ['schedule', 'run-due', '--json']);
    expect(due.code).toBe(0);
    const runs = JSON.parse(due.stdout) as ScheduleRun[];
    expect(runs.map((r) => [r.schedule, r.status, r.late, r.trigger])).toEqual([['overdue', 'done', true, 'due']]);
    const again = JSON.parse((await runCli(home, ['schedule', 'run-due', '--json'])).stdout) as ScheduleRun[];
    expect(again).toEqual([]);
  });

  it('a waiting run whose chat was deleted ends failed and leaves the Inbox', async () => {
    const ran = await runCli(home, ['schedule', 'run', 'ask']);
    expect(ran.stdout).toMatch(/^run-\w+ waiting/);
    const id = /(q-\w+)/.exec(ran.stdout)![1]!;
    const run = new RunStore(home).runs('ask').at(-1)!;
    expect((await runCli(home, ['sessions', 'delete', run.sessionId])).code).toBe(0);
    const answered = await runCli(home, ['inbox', 'approve', id]);
    expect(answered.stderr).toContain('its chat was deleted');
    expect(new RunStore(home).run(run.id)).toMatchObject({ status: 'failed', reason: 'Its chat was deleted while it waited.' });
    expect((await runCli(home, ['inbox', '--json'])).stdout.trim()).toBe('[]');
  });
});
