// The real CLI with a settings.json it cannot use: a FIFO or a folder is refused in one line at
// once (before: a FIFO hung the command forever, SIGTERM ignored; a folder gave an EISDIR stack).
import { spawnSync } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(REPO, 'electron/cli/bin.mjs');

function cli(home: string, args: string[]) {
  const env = { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: home };
  const started = Date.now();
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd: REPO, env, input: '', encoding: 'utf8', timeout: 30_000 });
  return { code: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr, ms: Date.now() - started };
}

describe('tooldesk with a settings.json that is not a regular file', () => {
  it('a FIFO: every command stops at once with one line naming the file and what to do', () => {
    const home = mkdtempSync(join(tmpdir(), 'td-'));
    const file = join(home, 'settings.json');
    execFileSync('mkfifo', [file]);
    for (const args of [['config', 'get'], ['tools', 'list'], ['sessions', 'list']]) {
      const run = cli(home, args);
      expect(run.signal, `${args.join(' ')} was killed by the timeout: it blocked`).toBeNull();
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `tooldesk ${args[0]}: Settings file ${file} is a FIFO (named pipe), not a regular file. Move it away (Tooldesk then writes the default settings there) or set TOOLDESK_HOME to another folder.\n`,
      );
    }
  });

  it('a folder: the same one line, no stack trace', () => {
    const home = mkdtempSync(join(tmpdir(), 'td-'));
    mkdirSync(join(home, 'settings.json'));
    const run = cli(home, ['config', 'get', 'systemPrompt']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^tooldesk config: Settings file .*settings\.json is a folder, not a regular file\. Move it away/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/EISDIR|\n\s+at /);
  });
});
