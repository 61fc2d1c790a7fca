// `tooldesk sessions search` and `sessions export` as real processes, on a session file written
// by an earlier build (test/fixtures/sessions/legacy-v1.jsonl).
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpHome } from '../support/chat-harness.ts';
import { runCli } from '../support/run-cli.ts';

const ID = 'mwub5amm-291a60';

const cli = (home: string, args: string[]) => runCli(home, args);

function homeWithLegacySession(): string {
  const home = tmpHome();
  mkdirSync(join(home, 'sessions'));
  copyFileSync(new URL('../fixtures/sessions/legacy-v1.jsonl', import.meta.url), join(home, 'sessions', `${ID}.jsonl`));
  return home;
}

describe('tooldesk sessions search / export', { timeout: 60_000 }, () => {
  it('search prints the session and the matching line of a message; no match exits 1', async () => {
    const home = homeWithLegacySession();
    const found = await cli(home, ['sessions', 'search', 'echo said']);
    expect(found.code).toBe(0);
    expect(found.stdout).toContain(`${ID}`);
    expect(found.stdout).toContain('The echo said hi.');
    const none = await cli(home, ['sessions', 'search', 'zeppelin']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no session mentions "zeppelin"');
  });

  it('export writes Markdown to stdout (tool calls folded) and JSON to a file; a bad format is a usage error', async () => {
    const home = homeWithLegacySession();
    const md = await cli(home, ['sessions', 'export', ID]);
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/^# Say hello\n/);
    expect(md.stdout).toContain('## Assistant (fake-model)\n\nHello **there**!');
    expect(md.stdout).toContain('<details><summary>Tool call: echo</summary>');
    expect(md.stdout).toContain('<details><summary>Tool result: echo → ERROR</summary>');

    const out = join(home, 'out.json');
    const json = await cli(home, ['sessions', 'export', ID, '--format', 'json', '--out', out]);
    expect(json.code).toBe(0);
    expect(json.stderr).toContain(`wrote ${out}`);
    const parsed = JSON.parse(readFileSync(out, 'utf8'));
    expect(parsed.session.id).toBe(ID);
    expect(parsed.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'assistant', 'user', 'tool']);

    const bad = await cli(home, ['sessions', 'export', ID, '--format', 'html']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--format takes md or json (got "html")');
    const missing = await cli(home, ['sessions', 'export', 'nope-nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no session "nope-nope"');
  });
});
