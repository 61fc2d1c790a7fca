// Browser mode: the built renderer plus the API over ONE WebSocket, on 127.0.0.1 only.
// Every connection must carry the random token and come from this very host:port (DNS rebinding);
// every frame is size-capped and validated before a handler runs.
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { API_ERRORS, API_LIMITS, toErrorValue, type ApiEvent, type ServerFrame } from '../../../../shared/api.ts';
import { createAccessToken, tokensMatch } from '../../base/access-token.ts';
import { dispatchRequest } from '../dispatch.ts';
import { isAllowedHost, isAllowedOrigin, loopbackBindAddress } from '../../base/loopback-guard.ts';
import { securityHeaders, serveStatic } from './static-files.ts';
import type { ApiHost } from '../types.ts';

export interface BrowserServerOptions {
  host: ApiHost;
  /** Folder of the built renderer (out/renderer). Without it only the API is served. */
  rendererDir?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Must be loopback; anything else throws LoopbackOnlyError before listening. */
  hostname?: string;
  /** A fixed token (tests); default random. */
  token?: string;
  /** Largest accepted WebSocket message, bytes. */
  maxPayload?: number;
  /** Called for refused connections (logged by `tooldesk serve`). */
  onRefused?: (reason: string) => void;
}

export interface BrowserServer {
  port: number;
  token: string;
  /** The page URL, token included (in the hash, so it never reaches a log or a Referer). */
  url: string;
  /** The API socket URL, token included. */
  socketUrl: string;
  /** Number of open API connections. */
  connections(): number;
  close(): Promise<void>;
}

/** Close codes: 1008 policy (also used for malformed frames), 1009 too big (by ws). */
const POLICY_VIOLATION = 1008;
/** A client that stops reading is dropped rather than buffered without bound; it reconnects and re-reads. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

function refuse(socket: Duplex, status: number, message: string): void {
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Forbidden'}\r\n` +
      'Connection: close\r\nContent-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const bindAddress = loopbackBindAddress(options.hostname);
  const token = options.token ?? createAccessToken();
  const maxPayload = options.maxPayload ?? API_LIMITS.maxMessageBytes;
  const clients = new Set<WebSocket>();
  let port = 0;

  const http = createServer((req, res) => {
    if (!isAllowedHost(req.headers.host, port)) {
      options.onRefused?.(`HTTP request for foreign Host ${JSON.stringify(req.headers.host)}`);
      res.writeHead(403, { ...securityHeaders(port), 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('forbidden: unknown Host\n');
      return;
    }
    if (!options.rendererDir) {
      res.writeHead(404, { ...securityHeaders(port), 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('no renderer build to serve\n');
      return;
    }
    serveStatic(options.rendererDir, req, res, port).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload, perMessageDeflate: false });

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const why =
      url.pathname !== '/api'
        ? { status: 404, reason: `no WebSocket at ${url.pathname}` }
        : !isAllowedHost(req.headers.host, port)
          ? { status: 403, reason: `foreign Host ${JSON.stringify(req.headers.host)}` }
          : !isAllowedOrigin(req.headers.origin, port)
            ? { status: 403, reason: `foreign Origin ${JSON.stringify(req.headers.origin)}` }
            : !tokensMatch(token, url.searchParams.get('token'))
              ? { status: 401, reason: 'missing or wrong token' }
              : null;
    if (why) {
      options.onRefused?.(why.reason);
      refuse(socket, why.status, `refused: ${why.reason}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws));
  });

  const send = (ws: WebSocket, frame: ServerFrame) => {
    if (ws.readyState !== ws.OPEN) return;
    let data: string;
    try {
      data = JSON.stringify(frame);
    } catch (error) {
      if (!('id' in frame)) return;
      data = JSON.stringify({ id: frame.id, ok: false, error: { name: API_ERRORS.internal, message: `response is not JSON: ${toErrorValue(error).message}` } });
    }
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.terminate();
      return;
    }
    ws.send(data);
  };

  function accept(ws: WebSocket): void {
    clients.add(ws);
    ws.on('close', () => clients.delete(ws));
    ws.on('error', () => ws.terminate());
    ws.on('message', (data, isBinary) => {
      if (isBinary) return ws.close(POLICY_VIOLATION, 'text frames only');
      let frame: unknown;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return ws.close(POLICY_VIOLATION, 'malformed frame');
      }
      const { id, method, request } = (frame ?? {}) as { id?: unknown; method?: unknown; request?: unknown };
      if (typeof id !== 'number' || !Number.isSafeInteger(id)) return ws.close(POLICY_VIOLATION, 'frame without an id');
      void dispatchRequest(options.host.handlers, method, request).then((result) => send(ws, { id, ...result }));
    });
  }

  const disposeEvents = options.host.onEvent((event: ApiEvent) => {
    for (const ws of clients) send(ws, { event });
  });

  await new Promise<void>((resolvePromise, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, bindAddress, () => {
      http.off('error', reject);
      resolvePromise();
    });
  }).catch((error) => {
    disposeEvents();
    throw error;
  });
  const address = http.address();
  port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/#token=${token}`,
    socketUrl: `ws://127.0.0.1:${port}/api?token=${token}`,
    connections: () => clients.size,
    async close() {
      disposeEvents();
      for (const ws of clients) ws.terminate();
      clients.clear();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
