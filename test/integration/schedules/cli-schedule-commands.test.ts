// `tooldesk schedule add|list|remove|enable|disable|install-timer` as a user types them: entries
// are checked before they are saved (a clear error naming the flag), the list shows the next run.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ScheduleInfo } from '../../../shared/schedules.ts';
import { tmpHome } from '../../support/chat-harness.ts';
import { runCli } from '../../support/run-cli.ts';

vi.setConfig({ testTimeout: 60_000 });
const home = tmpHome();
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('tooldesk schedule (editing)', () => {
  it('adds, lists with the next run one interval away, disables, enables and removes', async () => {
    const before = Date.now();
    const added = await runCli(home, ['schedule', 'add', 'morning', '--every', '30m', '--prompt', 'Summarise my notes', '--permissions', 'trusted']);
    expect(added).toMatchObject({ code: 0, stdout: 'Added schedule morning: every 30m, pauses on questions\n' });
    const cron = await runCli(home, ['schedule', 'add', 'weekly', '--cron', '0 9 * * 1', '--timezone', 'Europe/Berlin', '--on-ask', 'deny', '--prompt', 'Weekly report']);
    expect(cron.code).toBe(0);
    const settings = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'));
    expect(settings.schedules).toEqual([
      expect.objectContaining({ name: 'morning', every: '30m', prompt: 'Summarise my notes', permissions: 'trusted', createdAt: expect.any(Number) }),
      expect.objectContaining({ name: 'weekly', cron: '0 9 * * 1', timezone: 'Europe/Berlin', onAsk: 'deny' }),
    ]);

    const listed = JSON.parse((await runCli(home, ['schedule', 'list', '--json'])).stdout) as ScheduleInfo[];
    expect(listed.map((info) => info.config.name)).toEqual(['morning', 'weekly']);
    const next = listed[0]!.nextRunAt!;
    expect(next - before).toBeGreaterThanOrEqual(30 * 60_000 - 5000);
    expect(next - Date.now()).toBeLessThanOrEqual(30 * 60_000 + 5000);
    // Monday 09:00 in Berlin is 07:00 or 08:00 UTC.
    expect(new Date(listed[1]!.nextRunAt!).getUTCDay()).toBe(1);
    expect([7, 8]).toContain(new Date(listed[1]!.nextRunAt!).getUTCHours());
    expect((await runCli(home, ['schedule', 'list'])).stdout).toMatch(/^morning {2}every 30m {2}next \d{4}-\d\d-\d\d .*\[permissions trusted\]$/m);

    expect((await runCli(home, ['schedule', 'disable', 'morning'])).stdout).toBe('Disabled schedule morning\n');
    expect((await runCli(home, ['schedule', 'list'])).stdout).toMatch(/^morning {2}every 30m {2}disabled/m);
    expect((await runCli(home, ['schedule', 'enable', 'morning'])).code).toBe(0);
    expect((await runCli(home, ['schedule', 'list'])).stdout).toMatch(/^morning {2}every 30m {2}next /m);
    expect((await runCli(home, ['schedule', 'remove', 'weekly'])).stdout).toBe('Removed schedule weekly\n');
    expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')).schedules.map((s: { name: string }) => s.name)).toEqual(['morning']);
  });

  it('refuses bad input with the flag and what to write', async () => {
    const bad = async (args: string[]) => {
      const result = await runCli(home, ['schedule', 'add', ...args]);
      expect(result.code).toBe(2);
      return result.stderr.split('\n')[0];
    };
    expect(await bad(['x', '--every', '10', '--prompt', 'p'])).toBe('tooldesk schedule add: --every: "10" is not a duration: write a number and a unit, e.g. 30m, 2h or 1d (s, m, h, d)');
    expect(await bad(['x', '--cron', '0 9 * *', '--prompt', 'p'])).toMatch(/--cron: "0 9 \* \*" has 4 fields; a cron expression has five/);
    expect(await bad(['x', '--cron', '0 9 * * *', '--timezone', 'Moon/Base', '--prompt', 'p'])).toMatch(/--timezone: "Moon\/Base" is not a time zone/);
    expect(await bad(['x', '--every', '1h'])).toMatch(/missing --prompt TEXT/);
    expect(await bad(['x', '--every', '1h', '--cron', '* * * * *', '--prompt', 'p'])).toMatch(/exactly one of --every DUR and --cron EXPR/);
    expect(await bad(['bad name!', '--every', '1h', '--prompt', 'p'])).toMatch(/NAME: "bad name!" is not a schedule name/);
    expect(await bad(['x', '--every', '1h', '--prompt', 'p', '--on-ask', 'later'])).toMatch(/--on-ask must be one of pause, deny/);
    const unknownSet = await runCli(home, ['schedule', 'add', 'x', '--every', '1h', '--prompt', 'p', '--toolset', 'nope']);
    expect(unknownSet).toMatchObject({ code: 1, stderr: expect.stringContaining('no tool set "nope"') });
    expect((await runCli(home, ['schedule', 'remove', 'ghost'])).stderr).toContain('no schedule "ghost"');
  });

  it('install-timer prints each kind and installs nothing', async () => {
    const systemd = await runCli(home, ['schedule', 'install-timer', '--kind', 'systemd']);
    expect(systemd.stdout).toContain('OnCalendar=*-*-* *:*:00');
    expect(systemd.stdout).toMatch(/ExecStart=\S+node\S* \S+electron\/cli\/bin\.mjs schedule run-due/);
    expect(systemd.stdout).toContain(`Environment=TOOLDESK_HOME=${home}`);
    expect((await runCli(home, ['schedule', 'install-timer', '--kind', 'cron'])).stdout).toMatch(/^\* \* \* \* \* TOOLDESK_HOME=\S+ \S+ \S+bin\.mjs schedule run-due/m);
    const plist = (await runCli(home, ['schedule', 'install-timer', '--kind', 'launchd'])).stdout;
    expect(plist).toContain('<string>run-due</string>');
    expect(plist).toContain('<key>StartInterval</key><integer>60</integer>');
    expect((await runCli(home, ['schedule', 'install-timer', '--kind', 'windows'])).code).toBe(2);
  });
});
