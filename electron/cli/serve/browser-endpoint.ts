// Browser mode keeps its port and token across restarts (`<home>/browser-mode.json`, readable by
// the user only), so a tab left open reconnects by itself after `npm start` again. `--port N`
// and `--new-token` change them; a remembered port now taken by something else gives way to a
// free one, with a note.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAccessToken } from '../../runtime/base/access-token.ts';

export interface BrowserEndpoint {
  port: number;
  token: string;
}

export const browserEndpointFile = (home: string) => join(home, 'browser-mode.json');

export function readBrowserEndpoint(home: string): BrowserEndpoint | null {
  try {
    const value = JSON.parse(readFileSync(browserEndpointFile(home), 'utf8')) as Partial<BrowserEndpoint>;
    const portOk = Number.isInteger(value.port) && value.port! > 0 && value.port! <= 65535;
    const tokenOk = typeof value.token === 'string' && /^[A-Za-z0-9_-]{32,}$/.test(value.token);
    return portOk && tokenOk ? { port: value.port!, token: value.token! } : null;
  } catch {
    return null;
  }
}

export function saveBrowserEndpoint(home: string, endpoint: BrowserEndpoint): string | null {
  const file = browserEndpointFile(home);
  try {
    writeFileSync(file, `${JSON.stringify(endpoint)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    return null;
  } catch (error) {
    return `could not remember the port and token in ${file} (${(error as Error).message}); an open tab will need the new link after a restart`;
  }
}

/** What to listen on: the explicit port, else the remembered one, else any; the remembered token unless a new one is asked for. */
export function chooseBrowserEndpoint(home: string, options: { port?: number; newToken?: boolean }): { port: number; token: string; remembered: boolean } {
  const stored = readBrowserEndpoint(home);
  return {
    port: options.port ?? stored?.port ?? 0,
    token: options.newToken || !stored ? createAccessToken() : stored.token,
    remembered: options.port === undefined && stored !== null,
  };
}
