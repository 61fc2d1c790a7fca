// The Content-Security-Policy of the renderer's page, one for both ways it is shown: the Electron
// window (electron/main/trusted-url.ts) and browser mode (static-files.ts). No remote code, no
// inline script, connections only to the app itself; MCP Apps' sandbox proxy on a loopback origin
// (runtime/apps/app-sandbox-server.ts).

export interface RendererCspSources {
  /** Origins scripts may come from besides the page's own (the dev server). */
  script?: string[];
  /** What the page may connect to besides its own origin (the API socket, the dev server). */
  connect?: string[];
}

export function rendererCsp(sources: RendererCspSources = {}): string {
  const self = (more: string[] = []) => ["'self'", ...more].join(' ');
  return [
    "default-src 'self'",
    `script-src ${self(sources.script)}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${self(sources.connect)}`,
    'frame-src http://localhost:*',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
