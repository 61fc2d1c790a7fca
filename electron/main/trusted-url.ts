// Which URLs are "our page": the built renderer file, or the dev server in `electron-vite dev`.
import { pathToFileURL } from 'node:url';
import { rendererCsp } from '../runtime/host/transport/renderer-csp.ts';

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

/** The CSP of the Electron window; in `electron-vite dev` scripts and the reload socket come from the dev server. */
export function electronContentSecurityPolicy(devServerUrl?: string): string {
  if (!devServerUrl) return rendererCsp();
  const dev = new URL(devServerUrl);
  return rendererCsp({ script: [dev.origin], connect: [dev.origin, `ws://${dev.host}`] });
}
