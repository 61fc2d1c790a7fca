// npm test's pretest step (test/support/system-setup.mjs): on a machine without the system
// programs the tests need it stops at once, as a normal user, naming the one command to run; as
// root (or with TOOLDESK_TEST_INSTALL=1, through sudo) it runs the install and checks again.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS, setupSystem } from '../support/system-setup.mjs';
import { repoRoot } from '../support/run-cli.ts';

const script = join(repoRoot, 'test/support/system-setup.mjs');

/** A PATH folder holding node, apt-get and whichever of the required programs are named. */
function pathWith(programs: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'td-path-'));
  chmodSync(dir, 0o755);
  symlinkSync(process.execPath, join(dir, 'node'));
  symlinkSync('/usr/bin/apt-get', join(dir, 'apt-get'));
  for (const program of programs) symlinkSync('/bin/true', join(dir, program));
  return dir;
}

function captured(): { out: PassThrough; text: () => string } {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => (text += d.toString()));
  return { out, text: () => text };
}

describe('npm test sets up the system it needs', () => {
  it('with everything there: exits 0 at once and prints nothing', () => {
    const started = performance.now();
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...process.env, PATH: pathWith(REQUIREMENTS.map((r) => r.command)) } });
    expect(run.stderr + run.stdout).toBe('');
    expect(run.status).toBe(0);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it.runIf(process.platform === 'linux' && process.getuid?.() === 0)('as a normal user on a bare machine: stops in under 5 s, naming the apt command and the others', () => {
    const started = performance.now();
    const run = spawnSync(join(pathWith([]), 'node'), [script], { encoding: 'utf8', uid: 65534, gid: 65534, env: { PATH: pathWith([]) } });
    const elapsed = performance.now() - started;
    expect(run.status).toBe(1);
    expect(elapsed).toBeLessThan(5000);
    for (const r of REQUIREMENTS) expect(run.stderr).toMatch(new RegExp(`^  ${r.command} +for ${r.why.replace(/[()]/g, '\\$&')}$`, 'm'));
    expect(run.stderr).toContain('Run:  sudo apt-get install -y --no-install-recommends chromium bubblewrap gnome-keyring dbus python3 procps\n');
    expect(run.stderr).toContain('(Fedora: sudo dnf install -y chromium bubblewrap gnome-keyring dbus-daemon python3 procps-ng)');
    expect(run.stderr).toContain('(macOS: brew install python && brew install --cask chromium)');
    expect(run.stderr).toContain('TOOLDESK_TEST_INSTALL=1 npm test');
  });

  it('as root: installs only what is missing with apt, unattended, then checks again', () => {
    const dir = pathWith(['chromium', 'python3', 'ps', 'dbus-daemon']);
    const ran: string[] = [];
    const { out, text } = captured();
    const status = setupSystem({
      env: { PATH: dir },
      platform: 'linux',
      uid: 0,
      out,
      // The package manager's part: what apt would put on PATH.
      run: (command) => {
        ran.push(command);
        if (command.includes(' install ')) for (const program of ['bwrap', 'gnome-keyring-daemon']) writeFileSync(join(dir, program), '#!/bin/sh\n', { mode: 0o755 });
        return 0;
      },
    });
    expect(ran).toEqual(['apt-get update -qq', 'env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends bubblewrap gnome-keyring']);
    expect(status).toBe(0);
    expect(text()).toMatch(/bwrap +for the sandbox tests/);
  });

  it('TOOLDESK_TEST_INSTALL=1 as a user installs through sudo; a failed install names what is still missing', () => {
    const ran: string[] = [];
    const { out, text } = captured();
    const status = setupSystem({ env: { PATH: pathWith(['chromium', 'python3', 'ps', 'dbus-daemon', 'gnome-keyring-daemon']), TOOLDESK_TEST_INSTALL: '1' }, platform: 'linux', uid: 1000, out, run: (command) => (ran.push(command), 100) });
    expect(ran).toEqual(['sudo apt-get update -qq']);
    expect(status).toBe(1);
    expect(text()).toContain('Still missing after the install: bwrap.');
  });

  it('on macOS only what exists there is asked for (no sandbox or keyring daemons), with brew', () => {
    const { out, text } = captured();
    const status = setupSystem({ env: { PATH: pathWith(['bwrap']) }, platform: 'darwin', uid: 501, out, run: () => 0 });
    expect(status).toBe(1);
    expect(text()).toContain('Run:  brew install python && brew install --cask chromium');
    expect(text()).not.toMatch(/gnome-keyring-daemon +for/);
  });
});
