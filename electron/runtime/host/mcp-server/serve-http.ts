// `tooldesk mcp serve --http`: Streamable HTTP on 127.0.0.1 only. Every request is checked in
// this order: Host and Origin must name this loopback server (DNS-rebinding protection, 403),
// the path must be /mcp (404), the bearer token must match when auth is on (401), the body must
// fit (413). Each MCP session (2025 revisions: `initialize` then `Mcp-Session-Id`) gets its own
// McpServeConnection; sessions are bounded in number and closed after a long idle time.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { tokensMatch } from '../../base/access-token.ts';
import { isAllowedHost, isAllowedOrigin, loopbackBindAddress } from '../../base/loopback-guard.ts';
import type { McpServeConnection } from './serve-connection.ts';

export const MCP_PATH = '/mcp';

export interface McpHttpOptions {
  /** 0 picks a free port. */
  port: number;
  /** Undefined turns authentication off (`--no-auth`). */
  token: string | undefined;
  makeConnection(id: string): McpServeConnection;
  /** Open sessions at once (32); more are refused with 503 until one closes. */
  maxSessions?: number;
  /** Largest request body (16 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** A session with no request for this long is closed (30 min). */
  idleMs?: number;
  log?: (message: string) => void;
}

export interface McpHttpServer {
  url: string;
  port: number;
  sessionCount(): number;
  close(): Promise<void>;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  connection: McpServeConnection;
  lastSeen: number;
}

export async function startMcpHttpServer(options: McpHttpOptions): Promise<McpHttpServer> {
  const maxSessions = options.maxSessions ?? 32;
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const idleMs = options.idleMs ?? 30 * 60_000;
  const sessions = new Map<string, Session>();
  let counter = 0;
  let port = options.port;

  const endSession = (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    session.connection.close();
    void session.transport.close().catch(() => {});
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!isAllowedHost(req.headers.host, port)) return refuse(res, 403, `Forbidden: Host ${JSON.stringify(req.headers.host ?? '')} is not this server (127.0.0.1:${port}).`);
    const origin = req.headers.origin;
    if (!isAllowedOrigin(origin, port)) return refuse(res, 403, `Forbidden: Origin ${JSON.stringify(origin)} may not call this server.`);
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) return refuse(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    if (options.token !== undefined) {
      const header = req.headers.authorization ?? '';
      const given = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
      if (!tokensMatch(options.token, given)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="tooldesk"');
        return refuse(res, 401, given ? 'Unauthorized: wrong bearer token.' : 'Unauthorized: send "Authorization: Bearer <token>" (printed by `tooldesk mcp serve --http --show-token`).');
      }
    }
    let body: Buffer | undefined;
    if (req.method === 'POST') {
      const read = await readBody(req, maxBodyBytes);
      // The rest of the body is read and dropped (never buffered), so the client sees the 413, not a broken pipe.
      if (read === 'too-large') return refuse(res, 413, `Request body larger than ${Math.round(maxBodyBytes / 1024 / 1024)} MiB.`);
      body = read;
    }
    let parsed: unknown;
    if (body !== undefined) {
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return jsonRpcError(res, 400, -32700, 'Parse error: the body is not valid JSON.');
      }
    }
    const sessionId = headerValue(req.headers['mcp-session-id']);
    let session = sessionId ? sessions.get(sessionId) : undefined;
    if (sessionId && !session) return jsonRpcError(res, 404, -32001, 'Session not found: it ended or never existed. Initialize a new one.');
    if (!session) {
      const initializing = Array.isArray(parsed) ? parsed.some((m) => isInitializeRequest(m)) : isInitializeRequest(parsed);
      if (req.method !== 'POST' || !initializing) {
        return jsonRpcError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id; open a session with an initialize request first.');
      }
      if (sessions.size >= maxSessions) {
        return jsonRpcError(res, 503, -32000, `Too many MCP sessions (${maxSessions}) are open on this server; close one (DELETE ${MCP_PATH}) and retry.`);
      }
      session = openSession();
      await session.connection.server.connect(session.transport);
    }
    session.lastSeen = Date.now();
    const controller = new AbortController();
    const request = new Request(`http://127.0.0.1:${port}${req.url ?? MCP_PATH}`, {
      method: req.method ?? 'GET',
      headers: webHeaders(req),
      ...(body !== undefined ? { body: new Uint8Array(body) } : {}),
      signal: controller.signal,
    });
    const response = await session.transport.handleRequest(request, parsed !== undefined ? { parsedBody: parsed } : {});
    const current = session;
    const requestIds = requestIdsOf(parsed);
    res.on('close', () => {
      if (res.writableFinished) return;
      controller.abort();
      // The client hung up before its answer: its calls stop, their processes are killed.
      current.connection.abortRequests(requestIds, 'The MCP client closed the request before it finished.');
    });
    await writeResponse(response, res);
  };

  const openSession = (): Session => {
    const id = `http-${++counter}`;
    const connection = options.makeConnection(id);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => globalThis.crypto.randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, session),
      onsessionclosed: (sid) => endSession(sid),
      maxRequestBodySize: maxBodyBytes,
    });
    const session: Session = { transport, connection, lastSeen: Date.now() };
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      connection.close();
    };
    return session;
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      options.log?.(`MCP HTTP request failed: ${error.message}`);
      if (!res.headersSent) jsonRpcError(res, 500, -32603, `Internal error: ${error.message}`);
      else res.destroy();
    });
  });
  // Slow or stalled clients must not pin sockets forever.
  server.headersTimeout = 30_000;
  server.requestTimeout = 0; // SSE responses stay open for long calls
  const host = loopbackBindAddress('127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) if (now - session.lastSeen > idleMs) endSession(id);
  }, Math.min(idleMs, 60_000));
  sweep.unref();

  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    port,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      for (const id of [...sessions.keys()]) endSession(id);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(key, v);
  }
  return headers;
}

function requestIdsOf(parsed: unknown): (string | number)[] {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const ids: (string | number)[] = [];
  for (const m of messages) {
    const id = (m as { id?: unknown; method?: unknown } | null)?.id;
    if ((typeof id === 'string' || typeof id === 'number') && typeof (m as { method?: unknown }).method === 'string') ids.push(id);
  }
  return ids;
}

/** The body, or 'too-large' as soon as it passes the limit (the rest is not buffered). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve('too-large');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        chunks.length = 0;
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    headers[key] = key === 'set-cookie' ? [...((headers[key] as string[]) ?? []), value] : value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  res.on('close', () => body.destroy());
  body.on('error', () => res.destroy());
  body.pipe(res);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  jsonRpcError(res, status, status === 413 ? -32600 : -32000, message);
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
}
