// Serves the built renderer (out/renderer) read-only: GET/HEAD, no listing, no path escapes.
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { rendererCsp } from './renderer-csp.ts';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** The Content-Security-Policy of the page. `connect-src` names the API socket explicitly. */
export function contentSecurityPolicy(port: number): string {
  return rendererCsp({ connect: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`] });
}

export function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(port),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

export async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse, port: number): Promise<void> {
  const headers = securityHeaders(port);
  const send = (status: number, body: string | Buffer, type = 'text/plain; charset=utf-8', extra: Record<string, string> = {}) => {
    res.writeHead(status, { ...headers, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...extra });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n', undefined, { Allow: 'GET, HEAD' });
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
  } catch {
    return send(400, 'bad request\n');
  }
  if (pathname.includes('\0')) return send(400, 'bad request\n');
  const base = resolve(root);
  let file = resolve(join(base, normalize(pathname)));
  if (file !== base && !file.startsWith(base + sep)) return send(404, 'not found\n');
  try {
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
  } catch {
    // Unknown paths without an extension are the app's own routes: serve the page.
    if (extname(file) !== '') return send(404, 'not found\n');
    file = join(base, 'index.html');
  }
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return send(404, 'not found\n');
  }
  const type = MIME[extname(file).toLowerCase()] ?? 'application/octet-stream';
  send(200, body, type, { 'Cache-Control': type.startsWith('text/html') ? 'no-store' : 'no-cache' });
}
