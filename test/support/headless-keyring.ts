// A private D-Bus session with an unlocked gnome-keyring, for tests that store real secrets
// through the CLI across several processes. Undefined when dbus or gnome-keyring is missing.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';

export interface HeadlessKeyring {
  env: Record<string, string>;
  stop(): void;
}

export function startHeadlessKeyring(): HeadlessKeyring | undefined {
  const home = mkdtempSync('/var/tmp/td-keyring-');
  const run = join(home, 'run');
  mkdirSync(run, { mode: 0o700 });
  const base = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'share'), XDG_RUNTIME_DIR: run } as Record<string, string>;
  const bus = spawnSync('dbus-daemon', ['--session', '--fork', '--print-address=1', '--print-pid=1'], { env: base, encoding: 'utf8' });
  if (bus.status !== 0) return undefined;
  const [address, pid] = bus.stdout.trim().split('\n');
  const env = { ...base, DBUS_SESSION_BUS_ADDRESS: address! };
  const keyring = spawnSync('sh', ['-c', 'printf pw | gnome-keyring-daemon --unlock --components=secrets'], { env, encoding: 'utf8' });
  if (keyring.status !== 0) {
    process.kill(Number(pid), 'SIGTERM');
    return undefined;
  }
  return {
    env: { DBUS_SESSION_BUS_ADDRESS: address!, XDG_DATA_HOME: base.XDG_DATA_HOME!, XDG_RUNTIME_DIR: run },
    // gnome-keyring-daemon leaves when its session bus goes away.
    stop() {
      try {
        process.kill(Number(pid), 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}
