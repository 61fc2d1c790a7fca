// Issue 20 §5: with the working folder at its default (the home), `~/.env`, `~/*.pem`, `~/*.key`
// and those one and two folders down are hidden from tools, as the README promises for the
// working folder; deeper ones are beyond the bounded scan. Real bubblewrap, real runner.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRunner } from '../../electron/runtime/runner/create-runner.ts';
import { detectSandbox } from '../../electron/runtime/runner/sandbox-detect.ts';
import { clearSecretFileCache } from '../../electron/runtime/runner/sensitive-paths.ts';
import { tempHomes } from '../support/temp-homes.ts';

const run = createRunner({ killGraceMs: 200 });
const homes = tempHomes();

describe.skipIf(detectSandbox().kind !== 'bwrap')('secret files in the home when the home is the working folder', () => {
  afterAll(() => homes.removeAll());

  it('hides ~/.env, ~/*.pem, ~/*.key and those two folders down; other files stay readable', async () => {
    const home = homes.make();
    const files: Record<string, string> = {
      '.env': 'ENV-SECRET',
      '.env.local': 'ENV-LOCAL-SECRET',
      'server.pem': 'PEM-SECRET',
      'id.key': 'KEY-SECRET',
      'work/.env': 'WORK-ENV-SECRET',
      'work/app/deploy.pem': 'DEEP-PEM-SECRET',
      'notes.txt': 'PLAIN',
      'work/app/readme.md': 'PLAIN-DEEP',
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(home, rel, '..'), { recursive: true });
      writeFileSync(join(home, rel), text);
    }
    const tool = join(home, 'tools', 't');
    mkdirSync(tool, { recursive: true });
    clearSecretFileCache();
    const script = Object.keys(files).map((rel) => `printf '%s=' ${JSON.stringify(rel)}; cat ${JSON.stringify(join(home, rel))} 2>/dev/null; echo`).join('\n');
    const r = await run({ command: 'sh', args: ['-c', script], cwd: home, timeoutMs: 10_000, sandbox: { mode: 'required', network: false, toolDir: tool, workDir: home, homeDir: home } });
    expect(r.stderr).toBe('');
    const seen = Object.fromEntries(r.stdout.trim().split('\n').map((line) => line.split('=') as [string, string]));
    expect(seen).toEqual({
      '.env': '', '.env.local': '', 'server.pem': '', 'id.key': '', 'work/.env': '', 'work/app/deploy.pem': '',
      'notes.txt': 'PLAIN', 'work/app/readme.md': 'PLAIN-DEEP',
    });
  });
});
