// Done means, first bullet: a scheduled run whose model calls an asking tool pauses with the card
// in the Inbox; the `tooldesk serve` that owns the schedules is killed (SIGKILL) and started again;
// `tooldesk inbox approve ID` resumes the run, the tool runs once, the run ends `done`, and the
// schedule's chat holds the whole run. With `--on-ask deny` the call is refused and nothing runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../../../shared/permissions.ts';
import type { InboxItem, ScheduleRun } from '../../../shared/schedules.ts';
import { FINAL_PREFIX, toolMessages } from '../../e2e/support/fake-model.ts';
import { runCli } from '../../support/run-cli.ts';
import { useServeHomes } from '../../support/serve-homes.ts';

vi.setConfig({ testTimeout: 180_000 });

const { fake, home: newHome, serve } = useServeHomes();

async function cli(home: string, args: string[]): Promise<string> {
  const result = await runCli(home, args);
  if (result.code !== 0) throw new Error(`tooldesk ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** The session file's messages on the shown path's records (every message written, in order). */
function chatMessages(home: string, sessionId: string): Array<{ role: string; content: string; prompt?: string; result?: { status: string } }> {
  return readFileSync(join(home, 'sessions', `${sessionId}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { t: string; message?: { role: string; content: string } })
    .filter((record) => record.t === 'message')
    .map((record) => record.message as never);
}

describe('a scheduled run that needs an answer (real serve processes)', () => {
  it('pauses into the Inbox, survives SIGKILL of serve, and resumes on `inbox approve`', async () => {
    const home = newHome();
    await cli(home, ['schedule', 'add', 'nightly', '--every', '1d', '--prompt', 'call script_echo {"text":"from the schedule"}']);
    const first = await serve(home);

    const ran = await cli(home, ['schedule', 'run', 'nightly']);
    expect(ran).toMatch(/^run-\w+ waiting/);
    const inbox = JSON.parse(await cli(home, ['inbox', '--json'])) as InboxItem[];
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ schedule: 'nightly', kind: 'approval', toolName: 'script_echo', args: { text: 'from the schedule' } });
    // The card is saved in the schedule's chat.
    const waiting = (JSON.parse(await cli(home, ['schedule', 'runs', 'nightly', '--json'])) as ScheduleRun[])[0]!;
    expect(waiting.status).toBe('waiting');
    expect(readFileSync(join(home, 'sessions', `${waiting.sessionId}.jsonl`), 'utf8')).toContain('"t":"approval-asked"');

    first.process.kill('SIGKILL');
    await new Promise((resolve) => first.process.once('exit', resolve));
    await serve(home);

    const approved = await cli(home, ['inbox', 'approve', inbox[0]!.id]);
    expect(approved).toMatch(new RegExp(`^${waiting.id} done`));
    expect(JSON.parse(await cli(home, ['inbox', '--json']))).toEqual([]);

    const runs = JSON.parse(await cli(home, ['schedule', 'runs', 'nightly', '--json'])) as Array<ScheduleRun & { audit: AuditEntry[] }>;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ id: waiting.id, status: 'done', calls: 1 });
    expect(runs[0]!.endedAt).toBeGreaterThan(runs[0]!.startedAt);
    // The tool ran once: one allowed decision, one result.
    const ranCalls = runs[0]!.audit.filter((entry) => entry.tool === 'script_echo' && entry.decision === 'allowed');
    expect(ranCalls).toHaveLength(1);
    expect(ranCalls[0]!.status).toBe('SUCCESS');

    const messages = chatMessages(home, waiting.sessionId);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages[0]!.prompt).toMatch(/^Scheduled run · nightly · /);
    expect(messages[2]!.result?.status).toBe('SUCCESS');
    expect(messages[3]!.content).toContain(`${FINAL_PREFIX} echo: from the schedule`);
  });

  it('with --on-ask deny refuses the call, tells the model, runs nothing and ends denied', async () => {
    const home = newHome();
    await cli(home, ['schedule', 'add', 'strict', '--every', '1d', '--on-ask', 'deny', '--prompt', 'call script_echo {"text":"never"}']);
    await serve(home);
    const before = fake().chatRequests().length;
    const result = await runCli(home, ['schedule', 'run', 'strict']);
    expect(result.stdout).toMatch(/^run-\w+ denied/);
    expect(result.code).toBe(1);
    const runs = JSON.parse(await cli(home, ['schedule', 'runs', 'strict', '--json'])) as Array<ScheduleRun & { audit: AuditEntry[] }>;
    expect(runs[0]).toMatchObject({ status: 'denied', refused: 1 });
    expect(runs[0]!.audit.filter((entry) => entry.decision === 'allowed')).toEqual([]);
    expect(runs[0]!.audit.some((entry) => entry.tool === 'script_echo' && entry.decision === 'rejected')).toBe(true);
    const told = toolMessages(fake().chatRequests().slice(before).at(-1));
    expect(told.join('\n')).toContain('Nobody was there to answer');
    expect(JSON.parse(await cli(home, ['inbox', '--json']))).toEqual([]);
  });
});
