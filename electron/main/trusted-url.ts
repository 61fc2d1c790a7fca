// Which URLs are "our page": the built renderer file, or the dev server in `electron-vite dev`.
import { pathToFileURL } from 'node:url';

export interface AppLocation {
  /** Absolute path of out/renderer/index.html. */
  rendererFile: string;
  /** ELECTRON_RENDERER_URL in development. */
  devServerUrl?: string;
}

export function isAppUrl(url: string, location: AppLocation): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (location.devServerUrl) {
    const dev = new URL(location.devServerUrl);
    if (parsed.origin === dev.origin) return true;
  }
  if (parsed.protocol !== 'file:') return false;
  return parsed.pathname === pathToFileURL(location.rendererFile).pathname;
}

/** Links the user may open in the system browser. */
export function isExternalLink(url: string): boolean {
  return /^https?:\/\//i.test(url) || /^mailto:/i.test(url);
}

/** The CSP of the Electron window: no remote code, no inline script, connections only to itself. */
export function electronContentSecurityPolicy(devServerUrl?: string): string {
  const dev = devServerUrl ? ` ${new URL(devServerUrl).origin} ws://${new URL(devServerUrl).host}` : '';
  return [
    "default-src 'self'",
    `script-src 'self'${devServerUrl ? ` ${new URL(devServerUrl).origin}` : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${dev}`,
    // MCP Apps: the sandbox proxy on its own loopback origin.
    'frame-src http://localhost:*',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
