// Issue #32 on the terminal: `tooldesk rules test` shows the form a path argument is matched in
// (`~//private/x → HOME/private/x`), and arguments edited with `e` at a `tools run` question go
// through the rules again (item 7). The real CLI, a temp HOME, the read_file fixture tool.
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../support/run-cli.ts';
import { tempHomes } from '../support/temp-homes.ts';

const homes = tempHomes();
afterAll(() => homes.removeAll());

function privateHome(): { home: string; env: Record<string, string> } {
  const home = homes.make();
  mkdirSync(join(home, 'tools'), { recursive: true });
  cpSync(join(repoRoot, 'test/fixtures/tools/rules-read-file/read_file'), join(home, 'tools/read_file'), { recursive: true });
  mkdirSync(join(home, 'private'));
  writeFileSync(join(home, 'private/secret.txt'), 'SECRET-TEXT-c41d');
  mkdirSync(join(home, 'pub'));
  writeFileSync(join(home, 'pub/ok.txt'), 'public text');
  symlinkSync(join(home, 'private'), join(home, 'pub/link'));
  return { home, env: { HOME: home } };
}

describe('tooldesk rules test explains path arguments', () => {
  it('names the form each path is matched in, and the one the deciding rule matched', async () => {
    const { home, env } = privateHome();
    await runCli(home, ['rules', 'add', 'deny', '*', '--where', 'path~~/private/**', '--reason', 'private stays private'], '', env);
    const test = async (args: unknown) => (await runCli(home, ['rules', 'test', 'script_read_file', '--args', JSON.stringify(args)], '', env)).stdout;
    expect(await test({ path: '~//private/x' })).toBe(`deny by rule 1: private stays private\n  path: "~//private/x" → ${home}/private/x  (rule 1 matched ${home}/private/x)\n`);
    expect(await test({ path: '~/pub/link/../private/secret.txt' })).toBe(
      `deny by rule 1: private stays private\n  path: "~/pub/link/../private/secret.txt" → ${home}/pub/private/secret.txt, ${home}/private/secret.txt  (rule 1 matched ${home}/private/secret.txt)\n`,
    );
    expect(await test({ path: '/proc/self/cwd/x' })).toBe(
      'deny by rule 1: private stays private\n  path: "/proc/self/cwd/x" → cannot be resolved here (it depends on the process that opens it): deny and ask rules match it, allow rules never do\n',
    );
    expect(await test({ path: ' ~/pub/ok.txt' })).toBe(`none: no rule matches script_read_file; its policy decides\n  path: " ~/pub/ok.txt" → ${home}/ ~/pub/ok.txt, ${home}/pub/ok.txt\n`);
  }, 60_000);
});

describe('tools run: arguments edited with `e`', () => {
  it('are denied when the edit names a denied path; the tool never runs', async () => {
    const { home, env } = privateHome();
    await runCli(home, ['rules', 'add', 'deny', '*', '--where', 'path~~/private/**', '--reason', 'private stays private'], '', env);
    // An ask rule makes `tools run` ask, so that there is a question to answer with `e`.
    await runCli(home, ['rules', 'add', 'ask', 'script_read_file'], '', env);
    const edited = await runCli(home, ['tools', 'run', 'script_read_file', '--args', JSON.stringify({ path: '~/pub/ok.txt' })], `e\n${JSON.stringify({ path: '~//private/secret.txt' })}\ny\n`, env);
    expect(edited.stdout + edited.stderr).not.toContain('SECRET-TEXT-c41d');
    expect(edited.stderr).toContain('Denied by rule 1: private stays private');
    expect(edited.code).toBe(1);
    const audit = await runCli(home, ['audit', '--json'], '', env);
    const last = JSON.parse(audit.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(last).toMatchObject({ tool: 'script_read_file', decision: 'denied', by: 'rule', detail: 'rule 1' });
  }, 60_000);
});
