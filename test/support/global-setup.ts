// Once per `vitest run`: the keychain tests get a real keyring without a desktop session. Where no
// session bus is set (a server, CI, a fresh machine), a private D-Bus with an unlocked
// gnome-keyring is started and its address given to every test process; it stops with the run.
import { startHeadlessKeyring } from './headless-keyring.ts';

export default function setup(): (() => void) | undefined {
  if (process.platform !== 'linux' || process.env.DBUS_SESSION_BUS_ADDRESS) return undefined;
  const keyring = startHeadlessKeyring();
  if (!keyring) return undefined; // no dbus or gnome-keyring: the tests take their no-keyring path
  Object.assign(process.env, keyring.env);
  return () => keyring.stop();
}
