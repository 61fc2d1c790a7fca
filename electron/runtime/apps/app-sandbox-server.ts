// The sandbox origin of MCP Apps (the spec's double-frame sandbox proxy): a second HTTP server on
// 127.0.0.1 (addressed as localhost) with its own random port, so nothing it serves ever shares an origin with Tooldesk's
// page. Tooldesk frames /proxy/TOKEN (sandbox="allow-scripts allow-forms": an opaque origin);
// the proxy frames /app/TOKEN, the app's HTML under the CSP built from its `_meta.ui.csp`, with
// the same sandbox, and relays messages between the app and Tooldesk (relay.js) without reading
// them. A token is 128 random bits, serves its proxy once and its app once, and expires after a
// minute: the app cannot fetch another app's document (its CSP has no 'self' either).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { appPermissionsPolicy } from './app-permissions.ts';
import { withAppPrelude } from './app-prelude.ts';

export interface AppDocument {
  html: string;
  /** The app's Content-Security-Policy header. */
  csp: string;
  /** The frames' `allow` attribute (granted permissions), possibly empty. */
  allow: string;
}

export interface AppSandboxServer {
  readonly origin: string;
  /** Registers a document; returns the proxy's URL to frame. */
  register(doc: AppDocument): string;
  close(): Promise<void>;
}

const TOKEN_TTL_MS = 60_000;
const MAX_PENDING = 64;
/** Both frames: scripts and forms, never same-origin, top navigation, popups or downloads. */
export const APP_FRAME_SANDBOX = 'allow-scripts allow-forms';

const RELAY_JS = `// Relays JSON-RPC messages between Tooldesk (the parent) and the app (the inner frame).
const inner = document.getElementById('app');
window.addEventListener('message', (event) => {
  if (event.source === window.parent) inner.contentWindow && inner.contentWindow.postMessage(event.data, '*');
  else if (event.source === inner.contentWindow) window.parent.postMessage(event.data, '*');
});
`;

const escapeAttr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function proxyHtml(origin: string, token: string, allow: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;padding:0;height:100%;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style></head>
<body><iframe id="app" src="/app/${token}" sandbox="${APP_FRAME_SANDBOX}" allow="${escapeAttr(allow)}" title="MCP App"></iframe><script src="${origin}/relay.js"></script></body></html>`;
}

const COMMON = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' };

export async function startAppSandboxServer(): Promise<AppSandboxServer> {
  const pending = new Map<string, { doc: AppDocument; expires: number; proxyServed: boolean }>();
  let port = 0;
  // `localhost`, not 127.0.0.1: another site than a page on 127.0.0.1, so Chromium puts apps in a process of their own.
  const origin = () => `http://localhost:${port}`;
  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const reply = (res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { ...COMMON, 'Content-Type': type, ...headers });
    res.end(body);
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (!allowedHosts().includes(req.headers.host ?? '') || (req.method !== 'GET' && req.method !== 'HEAD')) return reply(res, 403, 'text/plain', 'refused');
    const now = Date.now();
    for (const [token, entry] of pending) if (entry.expires < now) pending.delete(token);
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/relay.js') return reply(res, 200, 'text/javascript; charset=utf-8', RELAY_JS, { 'Content-Security-Policy': "default-src 'none'" });
    const match = /^\/(proxy|app)\/([A-Za-z0-9_-]{22})$/.exec(path);
    const entry = match ? pending.get(match[2]!) : undefined;
    if (!match || !entry) return reply(res, 404, 'text/plain', 'This app is no longer available here: reopen the chat to show it again.');
    if (match[1] === 'proxy') {
      if (entry.proxyServed) return reply(res, 404, 'text/plain', 'already served');
      entry.proxyServed = true;
      // The proxy is sandboxed (an opaque origin): its sources are named by address, not 'self'.
      return reply(res, 200, 'text/html; charset=utf-8', proxyHtml(origin(), match[2]!, entry.doc.allow), {
        'Content-Security-Policy': `default-src 'none'; script-src ${origin()}/relay.js; style-src 'unsafe-inline'; frame-src ${origin()}/app/; base-uri 'none'; form-action 'none'`,
      });
    }
    if (!entry.proxyServed) return reply(res, 404, 'text/plain', 'not framed by its proxy');
    pending.delete(match[2]!);
    // WebRTC out of reach before the app's first line runs (app-prelude.ts).
    return reply(res, 200, 'text/html; charset=utf-8', withAppPrelude(entry.doc.html), { 'Content-Security-Policy': entry.doc.csp, 'Permissions-Policy': appPermissionsPolicy(entry.doc.allow) });
  };
  const server: Server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as { port: number }).port;
  return {
    origin: origin(),
    register(doc) {
      if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value!);
      const token = randomBytes(16).toString('base64url');
      pending.set(token, { doc, expires: Date.now() + TOKEN_TTL_MS, proxyServed: false });
      return `${origin()}/proxy/${token}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
