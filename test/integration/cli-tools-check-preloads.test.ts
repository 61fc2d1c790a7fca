// Issue 38: `tooldesk tools check` notes each module a Python tool folder imports that its warm
// fork-server leaves out (and why); `--verbose` lists, per fork-server, what it preloads. The
// real CLI (node electron/cli/bin.mjs) over the preload fixture, with an installed module that
// starts a thread at import (test/fixtures/preload-site) on the interpreter's path.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TOOL_FIXTURES } from '../support/fixture-entries.ts';
import { realPython } from '../support/real-python.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SITE = fileURLToPath(new URL('../fixtures/preload-site', import.meta.url));

function check(root: string, home: string, ...flags: string[]): { code: number | null; stdout: string; stderr: string } {
  const env = { PATH: process.env.PATH!, HOME: home, TOOLDESK_HOME: home, TOOLDESK_FROM_SOURCES: '1' };
  const run = spawnSync(process.execPath, [join(REPO, 'electron/cli/bin.mjs'), 'tools', 'check', '--root', root, ...flags], { cwd: REPO, env, encoding: 'utf8', timeout: 120_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe.skipIf(!realPython() || process.platform !== 'linux')('tools check: warm dependency imports', () => {
  it('notes what is left out, and --verbose lists what each fork-server preloads', () => {
    const root = join(mkdtempSync(join(tmpdir(), 'td-check-preload-')), 'py-preload-deps');
    cpSync(join(TOOL_FIXTURES, 'py-preload-deps'), root, { recursive: true });
    writeFileSync(join(root, 'odd.py'), 'import td_thread_at_import\nimport td_plain\n\ndef odd() -> str:\n    """Reads two installed modules."""\n    return td_plain.VALUE\n');
    const home = mkdtempSync(join(tmpdir(), 'td-check-home-'));
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ pythonPath: realPython(), extraEnv: { PYTHONPATH: SITE } }));

    const verbose = check(root, home, '--verbose');
    expect(verbose.code, verbose.stderr).toBe(0);
    expect(verbose.stdout).toContain(`${root}: warm Python runner: preloaded: numpy, requests, td_plain\n`);
    expect(verbose.stdout).toContain(`${join(root, 'numpy_sum')}: warm Python runner: preloaded: numpy, requests\n`);
    expect(verbose.stdout).toContain(`${join(root, 'numpy_max')}: warm Python runner: preloaded: numpy, requests\n`);
    expect(verbose.stdout).toContain(`${root}: note: td_thread_at_import is not preloaded: its import starts a thread\n`);

    const plain = check(root, home);
    expect(plain.stdout).toContain(`${root}: note: td_thread_at_import is not preloaded: its import starts a thread\n`);
    expect(plain.stdout).not.toContain('preloaded: numpy');

    const json = JSON.parse(check(root, home, '--json').stdout) as { preloads: Array<{ folder: string; preloaded: string[]; leftOut: Array<{ name: string; why: string }> }> };
    expect(json.preloads.find((p) => p.folder === root)).toEqual({ folder: root, preloaded: ['numpy', 'requests', 'td_plain'], leftOut: [{ name: 'td_thread_at_import', why: 'its import starts a thread' }] });
  }, 180_000);
});
