// `schedule add … --cwd DIR`: the schedule's tools run in DIR, not in the working-folder setting —
// a tool that appends to a relative file and reports its folder shows where it ran — and the
// rules resolve a relative path argument against DIR too. A relative --cwd is taken from where
// the command runs; one that is not a folder is refused, and a run whose folder went away fails
// with the reason instead of running elsewhere.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRuntime, type Runtime } from '../../../electron/runtime/create-runtime.ts';
import { SecretStore, sessionBackend } from '../../../electron/runtime/store/secret-store.ts';
import { openSettingsStore } from '../../../electron/runtime/store/settings-store.ts';
import { makeHome } from '../../e2e/support/e2e-home.ts';
import { e2eScript } from '../../e2e/support/fake-model.ts';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../support/fake-openai-server.ts';
import { repoRoot, runCli } from '../../support/run-cli.ts';
import { addCountingTool } from '../../support/schedule-tools.ts';

vi.setConfig({ testTimeout: 90_000 });

let fake: FakeOpenAIServer;
let home: string;
/** The working-folder setting, and the schedule's own folder (outside /tmp: the sandbox has its own /tmp). */
let setting: string;
let own: string;
let runtime: Runtime | undefined;

beforeAll(async () => {
  fake = await startFakeOpenAI({ script: e2eScript });
  setting = mkdtempSync('/var/tmp/td-sched-setting-');
  own = mkdtempSync('/var/tmp/td-sched-own-');
  home = makeHome({
    providerUrl: fake.url,
    settings: {
      workingDir: setting,
      permissionOverrides: { script_count: { executionPolicy: 'auto' } },
      toolRules: [{ action: 'deny', tool: 'script_count', where: [{ path: 'file', glob: `${own}/private*` }], reason: 'private notes' }],
    },
  });
  addCountingTool(home);
});

afterAll(async () => {
  await runtime?.close();
  await fake?.close();
  for (const dir of [home, setting, own]) rmSync(dir, { recursive: true, force: true });
});

async function scheduler() {
  runtime ??= await createRuntime({ home, secrets: new SecretStore({ keyring: sessionBackend() }), tools: {} });
  return runtime.scheduler();
}

describe('a schedule with its own working folder', () => {
  it('is added with --cwd (relative to where the command runs), refused when that is not a folder', async () => {
    const added = await runCli(home, ['schedule', 'add', 'here', '--every', '1d', '--cwd', relative(repoRoot, own), '--prompt', 'call script_count {}']);
    expect(added.code).toBe(0);
    expect(added.stderr).not.toContain('not applied');
    const bad = await runCli(home, ['schedule', 'add', 'nowhere', '--every', '1d', '--cwd', 'no-such-folder-here', '--prompt', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`--cwd: ${join(repoRoot, 'no-such-folder-here')} is not an existing folder`);
    const schedules = openSettingsStore(home).get().schedules ?? [];
    expect(schedules.map((s) => [s.name, s.cwd])).toEqual([['here', own]]);
  });

  it('runs its tools in that folder, not in the working-folder setting', async () => {
    const run = await (await scheduler()).runNow('here');
    expect(run).toMatchObject({ status: 'done', cwd: own });
    expect(readFileSync(join(own, 'count.txt'), 'utf8')).toBe('ran\n');
    expect(existsSync(join(setting, 'count.txt'))).toBe(false);
    const tool = (await runtime!.sessions()).open(run.sessionId).messages().find((m) => m.role === 'tool');
    expect(tool?.content).toContain(`count 1 in ${own}`);
  });

  it('resolves a relative path in the rules against that folder', async () => {
    const s = await scheduler();
    const { settings } = runtime!;
    settings.set('schedules', (settings.get().schedules ?? []).map((c) => (c.name === 'here' ? { ...c, prompt: 'call script_count {"file":"private.txt"}' } : c)));
    const run = await s.runNow('here');
    expect(run.status).toBe('done');
    expect(existsSync(join(own, 'private.txt'))).toBe(false);
    const tool = (await runtime!.sessions()).open(run.sessionId).messages().filter((m) => m.role === 'tool').at(-1);
    expect(tool?.content).toContain('private notes');
  });

  it('fails a run whose folder is gone, with the reason, and runs nothing elsewhere', async () => {
    const gone = join(own, 'gone');
    mkdirSync(gone);
    const s = await scheduler();
    const { settings } = runtime!;
    settings.set('schedules', [...(settings.get().schedules ?? []), { name: 'lost', prompt: 'call script_count {}', every: '1d', cwd: gone, createdAt: Date.now() }]);
    rmSync(gone, { recursive: true });
    const run = await s.runNow('lost');
    expect(run.status).toBe('failed');
    expect(run.reason).toContain(`Its working folder ${gone} does not exist`);
    expect(existsSync(join(setting, 'count.txt'))).toBe(false);
  });
});
