// Where Tooldesk keeps its files. Computed without Electron so the CLI and the app agree.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_NAME = 'Tooldesk';

/**
 * TOOLDESK_HOME, else Electron's userData path for the app name: `$XDG_CONFIG_HOME/Tooldesk`
 * (default `~/.config/Tooldesk`) on Linux, `~/Library/Application Support/Tooldesk` on macOS,
 * `%APPDATA%\Tooldesk` on Windows.
 */
export function toolDeskHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.TOOLDESK_HOME) return env.TOOLDESK_HOME;
  const home = env.HOME || env.USERPROFILE || homedir();
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_NAME);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), APP_NAME);
}

export interface AppPaths {
  home: string;
  settingsFile: string;
  sessionsDir: string;
  cacheDir: string;
  toolsDir: string;
}

export function appPaths(home: string = toolDeskHome()): AppPaths {
  return {
    home,
    settingsFile: join(home, 'settings.json'),
    sessionsDir: join(home, 'sessions'),
    cacheDir: join(home, 'cache'),
    toolsDir: join(home, 'tools'),
  };
}
