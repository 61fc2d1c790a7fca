// `npm test`'s pretest step (and .ci/run's): the system programs the tests need. Everything is
// found on PATH without starting a process, so a machine that has them all pays ~50 ms. What is
// missing is installed with the system's package manager when we may (running as root, or
// TOOLDESK_TEST_INSTALL=1, through sudo); otherwise the one command to run is printed and the step
// fails before any test starts. Plain JavaScript: it runs before anything else is set up.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * What the tests need, and its package per package manager (absent: none there, e.g. the
 * sandbox and the headless keyring are Linux-only; macOS has its own keychain).
 */
export const REQUIREMENTS = [
  { command: 'chromium', why: 'the browser (e2e) tests', packages: { apt: 'chromium', dnf: 'chromium', brew: '--cask chromium' } },
  { command: 'bwrap', why: 'the sandbox tests', packages: { apt: 'bubblewrap', dnf: 'bubblewrap' } },
  { command: 'gnome-keyring-daemon', why: 'the keychain tests (a headless keyring)', packages: { apt: 'gnome-keyring', dnf: 'gnome-keyring' } },
  { command: 'dbus-daemon', why: 'the keychain tests (their session bus)', packages: { apt: 'dbus', dnf: 'dbus-daemon' } },
  { command: 'python3', why: 'the Python tool tests', packages: { apt: 'python3', dnf: 'python3', brew: 'python' } },
  { command: 'ps', why: 'the process-tree tests', packages: { apt: 'procps', dnf: 'procps-ng' } },
];

/** The file `command` runs from PATH, or null. */
export function findOnPath(command, path = process.env.PATH ?? '') {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return join(dir, command);
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** The package manager of this system: apt (Debian, Ubuntu), dnf (Fedora), brew (macOS), or null. */
export function packageManager(platform = process.platform, path = process.env.PATH ?? '') {
  if (platform === 'darwin') return 'brew';
  if (findOnPath('apt-get', path)) return 'apt';
  if (findOnPath('dnf', path)) return 'dnf';
  return null;
}

/**
 * The commands that install `missing` with `manager`: `sudo` first when not root; `unattended`
 * (what this step runs itself) refreshes apt's lists and asks nothing.
 */
export function installCommands(missing, manager, { sudo = false, unattended = false } = {}) {
  const names = missing.map((r) => r.packages[manager]).filter(Boolean);
  if (names.length === 0) return [];
  const s = sudo ? 'sudo ' : '';
  if (manager === 'apt') {
    const install = `${s}${unattended ? 'env DEBIAN_FRONTEND=noninteractive ' : ''}apt-get install -y --no-install-recommends ${names.join(' ')}`;
    return unattended ? [`${s}apt-get update -qq`, install] : [install];
  }
  if (manager === 'dnf') return [`${s}dnf install -y ${names.join(' ')}`];
  const casks = names.filter((n) => n.startsWith('--cask ')).map((n) => n.slice('--cask '.length));
  const formulae = names.filter((n) => !n.startsWith('--cask '));
  return [...(formulae.length ? [`brew install ${formulae.join(' ')}`] : []), ...(casks.length ? [`brew install --cask ${casks.join(' ')}`] : [])];
}

const SYSTEM_NAMES = { apt: 'Debian/Ubuntu', dnf: 'Fedora', brew: 'macOS' };

/** What a person runs: this system's command, then the other systems' where they have the packages. */
export function adviceFor(missing, manager) {
  const line = (m) => installCommands(missing, m, { sudo: m !== 'brew' }).join(' && ');
  const lines = manager && line(manager) ? [`Run:  ${line(manager)}`] : [];
  for (const other of ['apt', 'dnf', 'brew']) if (other !== manager && line(other)) lines.push(`  (${SYSTEM_NAMES[other]}: ${line(other)})`);
  return lines;
}

/**
 * Checks, installs when allowed, and returns the exit status (0: everything is there).
 * @param {{ env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform, uid?: number, out?: NodeJS.WritableStream, run?: (command: string) => number }} [options]
 */
export function setupSystem(options = {}) {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const uid = options.uid ?? process.getuid?.() ?? -1;
  const out = options.out ?? process.stderr;
  const run = options.run ?? ((command) => spawnSync('sh', ['-c', command], { stdio: 'inherit', env }).status ?? 1);
  const manager = packageManager(platform, env.PATH);
  const needed = REQUIREMENTS.filter((r) => platform === 'linux' || (manager && r.packages[manager]));
  const missing = needed.filter((r) => !findOnPath(r.command, env.PATH));
  if (missing.length === 0) return 0;
  out.write(`The tests need programs this machine does not have:\n${missing.map((r) => `  ${r.command.padEnd(21)} for ${r.why}`).join('\n')}\n`);
  const mayInstall = uid === 0 || env.TOOLDESK_TEST_INSTALL === '1';
  if (mayInstall && manager && manager !== 'brew') {
    const commands = installCommands(missing, manager, { sudo: uid !== 0, unattended: true });
    out.write(`Installing them: ${commands.join(' && ')}\n`);
    for (const command of commands) if (run(command) !== 0) break;
    const still = missing.filter((r) => !findOnPath(r.command, env.PATH));
    if (still.length === 0) return 0;
    out.write(`Still missing after the install: ${still.map((r) => r.command).join(', ')}.\n`);
    return 1;
  }
  const advice = adviceFor(missing, manager);
  out.write(advice.length ? `${advice.join('\n')}\n` : 'Install them with your system\'s package manager.\n');
  if (manager !== 'brew') out.write('Or let `npm test` install them: TOOLDESK_TEST_INSTALL=1 npm test (uses sudo), or run it as root.\n');
  return 1;
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) process.exitCode = setupSystem();
