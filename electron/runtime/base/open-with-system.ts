// Hands a path or URL to the system (the file manager, the browser): `open` on macOS, `start` on
// Windows, `xdg-open` elsewhere. Best effort: false when no opener could be started, never a throw.
import { spawn } from 'node:child_process';

export function openWithSystem(target: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const [command, args] =
    platform === 'darwin' ? ['open', [target]] : platform === 'win32' ? ['cmd', ['/c', 'start', '""', target]] : ['xdg-open', [target]];
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, { stdio: 'ignore', detached: true });
      child.on('error', () => resolve(false));
      child.on('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
