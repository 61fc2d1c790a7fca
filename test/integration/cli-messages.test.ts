// Issue 25 §10: the CLI's messages are written for people: a bad --base-url is refused before
// anything starts (no retries, no stray session), an unreachable server is named once, and a
// mistyped command or sub-command gets "did you mean"; a call that did not run says why and what
// to do (the result's own text is for a model).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tmpHome } from '../support/chat-harness.ts';
import { runCli, weatherHome } from '../support/run-cli.ts';

vi.setConfig({ testTimeout: 120_000 });

const sessionFiles = (home: string) => (existsSync(join(home, 'sessions')) ? readdirSync(join(home, 'sessions')) : []);

describe('CLI messages for people', () => {
  it('chat --base-url notaurl is refused up front, with what to give instead, and leaves no session', async () => {
    const home = tmpHome();
    const started = Date.now();
    const result = await runCli(home, ['chat', '--base-url', 'notaurl', '--model', 'm', 'hello']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--base-url "notaurl" is not a server address');
    expect(result.stderr).toContain('http://');
    expect(result.stderr).not.toMatch(/retry|Retrying/i);
    expect(sessionFiles(home)).toEqual([]);
    // No retries: it answers as fast as the CLI starts.
    expect(Date.now() - started).toBeLessThan(30_000);
    for (const bad of ['ftp://example.com/v1', 'http://', 'localhost:11434']) {
      const again = await runCli(home, ['chat', '--base-url', bad, '--model', 'm', 'hello']);
      expect(again.code, bad).toBe(2);
      expect(again.stderr, bad).toContain('is not a server address');
    }
  });

  it('an unreachable server is named once ("at URL", not "at URL at URL")', async () => {
    const home = tmpHome();
    const url = 'http://127.0.0.1:9/v1';
    const result = await runCli(home, ['chat', '--base-url', url, '--model', 'm', 'hello']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`Could not reach the --base-url server at ${url}`);
    expect(result.stderr).not.toContain(`${url} at ${url}`);
  });

  it('typos get "did you mean", for commands and sub-commands', async () => {
    const home = tmpHome();
    const top = await runCli(home, ['tolos', 'list']);
    expect(top.code).toBe(2);
    expect(top.stderr).toContain('unknown command "tolos". Did you mean "tools"?');
    const sub = await runCli(home, ['tools', 'lsit']);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain('unknown sub-command "lsit". Did you mean "list"?');
    const far = await runCli(home, ['tools', 'frobnicate']);
    expect(far.stderr).toContain('unknown sub-command "frobnicate".');
    expect(far.stderr).not.toContain('Did you mean');
  });

  it('`tools run` says why a call did not run and what to do, in words for the person, not the model', async () => {
    const home = weatherHome();
    const run = (input: string, ...more: string[]) => runCli(home, ['tools', 'run', 'compare', '--args', '{"cities": ["Paris", "Oslo"]}', ...more], input);
    // stdin is a pipe that ends: nobody can answer.
    const unanswered = await run('');
    expect(unanswered.code).toBe(1);
    expect(unanswered.stderr).toContain('Not run: compare needs approval and this terminal cannot ask (standard input is not a terminal, and it ended without an answer); pass --yes to approve it, or allow it for good with `tooldesk rules add allow compare`.');
    expect(unanswered.stderr).not.toMatch(/did not allow|Do not retry/);
    const refused = await run('n: not today\n');
    expect(refused.stderr).toContain('Not run: you did not allow it ("not today").');
    expect(refused.stderr).not.toMatch(/The user|Do not retry/);
    const rule = await runCli(home, ['rules', 'add', 'deny', 'compare', '--reason', 'no comparisons here']);
    expect(rule.code, rule.stderr).toBe(0);
    const denied = await run('');
    expect(denied.stderr).toContain('Not run: ');
    expect(denied.stderr).toContain('no comparisons here');
    expect(denied.stderr).toContain('`tooldesk rules test compare` shows which rule decides it.');
    expect(denied.stderr).not.toMatch(/do not retry|Ask the user/i);
  });
});
