// Browser mode end to end in Node: a real server, real `ws` clients, the real renderer client.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ApiEvent, ApiEventListener, ApiHandlers } from '../../../shared/api.ts';
import { apiError } from '../../../shared/api.ts';
import { startBrowserServer, type BrowserServer } from '../../../electron/runtime/host/transport/server.ts';
import type { ApiHost } from '../../../electron/runtime/host/types.ts';
import { createWsClient, type SocketLike } from '../../../renderer/src/api/ws-client.ts';

function stubHost() {
  const listeners = new Set<ApiEventListener>();
  const calls: string[] = [];
  const handlers = {
    listSessions: async () => {
      calls.push('listSessions');
      return [{ id: 's1', title: 'first', createdAt: 1, updatedAt: 2, messageCount: 0 }];
    },
    openSession: async ({ sessionId }: { sessionId: string }) => {
      calls.push('openSession');
      throw apiError('NotFoundError', `no session ${sessionId}`);
    },
    sendMessage: async ({ text }: { sessionId: string; text: string }) => {
      calls.push(`sendMessage:${text.length}`);
      return { turnId: 't1' };
    },
    deleteSession: async () => undefined,
  } as unknown as ApiHandlers;
  const host: ApiHost = {
    handlers,
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  return { host, calls, listeners, emit: (e: ApiEvent) => listeners.forEach((l) => l(e)) };
}

function rendererDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'td-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Tooldesk</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
  return dir;
}

/** Opens a raw socket; resolves 'open' or the HTTP status of the refusal. */
function tryConnect(url: string, headers: Record<string, string> = {}): Promise<{ opened: true; ws: WebSocket } | { opened: false; status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => resolve({ opened: true, ws }));
    ws.on('unexpected-response', (_req, res) => {
      resolve({ opened: false, status: res.statusCode ?? 0 });
      res.resume();
    });
    ws.on('error', () => resolve({ opened: false, status: 0 }));
  });
}

function nextMessage(ws: WebSocket): Promise<Record<string, any>> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
}

function nextClose(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
}

function get(port: number, path: string, host = `127.0.0.1:${port}`): Promise<{ status: number; headers: Record<string, any>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

let servers: BrowserServer[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  sockets.splice(0).forEach((s) => s.terminate());
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(extra: Partial<Parameters<typeof startBrowserServer>[0]> = {}) {
  const stub = stubHost();
  const refused: string[] = [];
  const server = await startBrowserServer({ host: stub.host, rendererDir: rendererDir(), onRefused: (r) => refused.push(r), ...extra });
  servers.push(server);
  return { server, stub, refused };
}

describe('browser-mode server', () => {
  it('serves the page with a CSP and the token-bearing URL', async () => {
    const { server } = await start();
    expect(server.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/#token=[A-Za-z0-9_-]{40,}$`));
    const page = await get(server.port, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain(`connect-src 'self' ws://127.0.0.1:${server.port}`);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const js = await get(server.port, '/assets/app.js');
    expect(js.headers['content-type']).toMatch(/javascript/);
    // Escapes collapse into the root (the page is served instead), never a file outside it.
    expect((await get(server.port, '/../../etc/passwd')).body).not.toContain('root:x');
    expect((await get(server.port, '/assets/%2e%2e/%2e%2e/%2e%2e/etc/passwd')).body).not.toContain('root:x');
    expect((await get(server.port, '/assets/..%2f..%2f..%2fetc%2fpasswd')).body).not.toContain('root:x');
    expect((await get(server.port, '/assets/missing.js')).status).toBe(404);
  });

  it('answers requests over the socket, with errors as {name, message} values', async () => {
    const { server, stub } = await start();
    const r = await tryConnect(server.socketUrl, { origin: `http://127.0.0.1:${server.port}` });
    expect(r.opened).toBe(true);
    if (!r.opened) return;
    sockets.push(r.ws);
    r.ws.send(JSON.stringify({ id: 1, method: 'listSessions', request: {} }));
    expect(await nextMessage(r.ws)).toEqual({ id: 1, ok: true, value: [expect.objectContaining({ id: 's1' })] });
    r.ws.send(JSON.stringify({ id: 2, method: 'openSession', request: { sessionId: 'nope' } }));
    expect(await nextMessage(r.ws)).toEqual({ id: 2, ok: false, error: { name: 'NotFoundError', message: 'no session nope' } });
    r.ws.send(JSON.stringify({ id: 3, method: 'deleteSession', request: { sessionId: 'x' } }));
    expect(await nextMessage(r.ws)).toEqual({ id: 3, ok: true, value: null });
    stub.emit({ type: 'variables.changed', sessionId: 's1' });
    expect(await nextMessage(r.ws)).toEqual({ event: { type: 'variables.changed', sessionId: 's1' } });
  });

  it('drives the renderer client: promises, events, ApiError with its name', async () => {
    const { server, stub } = await start();
    const client = createWsClient({ url: server.socketUrl, createSocket: (url) => new WebSocket(url) as unknown as SocketLike, backoffMs: 20 });
    try {
      const events: ApiEvent[] = [];
      const off = client.onEvent((e) => events.push(e));
      expect(await client.listSessions()).toHaveLength(1);
      await expect(client.openSession({ sessionId: 'zz' })).rejects.toMatchObject({ name: 'NotFoundError', message: 'no session zz' });
      await expect((client as any).sendMessage({ sessionId: 's' })).rejects.toMatchObject({ name: 'InvalidRequestError' });
      stub.emit({ type: 'session.delta', sessionId: 's1', messageId: 'm1', text: 'hi' });
      await expect.poll(() => events.length).toBe(1);
      off();
      stub.emit({ type: 'variables.changed', sessionId: 's1' });
      await client.listSessions(); // events and responses share the socket: the event came first
      expect(events).toEqual([{ type: 'session.delta', sessionId: 's1', messageId: 'm1', text: 'hi' }]);
      expect(client.state).toBe('open');
      expect(server.connections()).toBe(1);
    } finally {
      client.close();
    }
  });

  it('reconnects after the server drops the connection', async () => {
    const { server } = await start({ token: 'fixed-token-for-test' });
    const client = createWsClient({ url: server.socketUrl, createSocket: (url) => new WebSocket(url) as unknown as SocketLike, backoffMs: 20 });
    try {
      expect(await client.listSessions()).toHaveLength(1);
      const states: string[] = [];
      client.onConnectionChange((s) => states.push(s));
      const port = server.port;
      await server.close();
      servers = servers.filter((s) => s !== server);
      await expect.poll(() => states.includes('connecting')).toBe(true);
      const again = await startBrowserServer({ host: stubHost().host, port, token: 'fixed-token-for-test' });
      servers.push(again);
      expect(await client.listSessions()).toHaveLength(1);
      expect(client.state).toBe('open');
    } finally {
      client.close();
    }
  });
});

describe('browser-mode security', () => {
  it('refuses a connection without a token', async () => {
    const { server, refused } = await start();
    const r = await tryConnect(`ws://127.0.0.1:${server.port}/api`);
    expect(r).toEqual({ opened: false, status: 401 });
    expect(refused).toContain('missing or wrong token');
    expect(server.connections()).toBe(0);
  });

  it('refuses a wrong token, and a token of the right length that differs', async () => {
    const { server } = await start();
    expect(await tryConnect(`ws://127.0.0.1:${server.port}/api?token=nope`)).toEqual({ opened: false, status: 401 });
    const flipped = (server.token[0] === 'A' ? 'B' : 'A') + server.token.slice(1);
    expect(await tryConnect(`ws://127.0.0.1:${server.port}/api?token=${flipped}`)).toEqual({ opened: false, status: 401 });
  });

  it('refuses a foreign Origin even with the right token', async () => {
    const { server, refused } = await start();
    for (const origin of ['http://evil.example', `http://evil.example:${server.port}`, 'null', `https://127.0.0.1:${server.port}`, 'http://127.0.0.1:1']) {
      expect(await tryConnect(server.socketUrl, { origin })).toEqual({ opened: false, status: 403 });
    }
    expect(refused.some((r) => r.includes('foreign Origin'))).toBe(true);
    const ok = await tryConnect(server.socketUrl, { origin: `http://localhost:${server.port}` });
    expect(ok.opened).toBe(true);
    if (ok.opened) sockets.push(ok.ws);
  });

  it('refuses a foreign Host (DNS rebinding), on the socket and on the page', async () => {
    const { server } = await start();
    expect(await tryConnect(server.socketUrl, { host: `evil.example:${server.port}` })).toEqual({ opened: false, status: 403 });
    expect(await tryConnect(server.socketUrl, { host: 'evil.example' })).toEqual({ opened: false, status: 403 });
    const page = await get(server.port, '/', `evil.example:${server.port}`);
    expect(page.status).toBe(403);
    expect(page.body).not.toContain('root');
  });

  it('refuses to bind anything but loopback', async () => {
    const { host } = stubHost();
    for (const hostname of ['0.0.0.0', '::', '192.168.1.10', 'example.com', '']) {
      await expect(startBrowserServer({ host, hostname })).rejects.toMatchObject({ name: 'LoopbackOnlyError' });
    }
  });

  it('closes a connection that sends an oversized message, before any handler runs', async () => {
    const { server, stub } = await start({ maxPayload: 64 * 1024 });
    const r = await tryConnect(server.socketUrl);
    if (!r.opened) throw new Error('could not connect');
    sockets.push(r.ws);
    const closed = nextClose(r.ws);
    r.ws.send(JSON.stringify({ id: 1, method: 'sendMessage', request: { sessionId: 's', text: 'x'.repeat(100 * 1024) } }));
    expect((await closed).code).toBe(1009);
    expect(stub.calls).toEqual([]);
  });

  it('refuses unknown methods and payloads that fail validation, without calling a handler', async () => {
    const { server, stub } = await start();
    const r = await tryConnect(server.socketUrl);
    if (!r.opened) throw new Error('could not connect');
    sockets.push(r.ws);
    const ask = async (frame: unknown) => {
      r.ws.send(JSON.stringify(frame));
      return nextMessage(r.ws);
    };
    expect(await ask({ id: 1, method: 'rm -rf', request: {} })).toMatchObject({ id: 1, ok: false, error: { name: 'UnknownMethodError' } });
    expect(await ask({ id: 2, method: 'constructor', request: {} })).toMatchObject({ id: 2, ok: false, error: { name: 'UnknownMethodError' } });
    expect(await ask({ id: 3, method: 'sendMessage', request: { sessionId: 's', text: 1 } })).toMatchObject({
      id: 3,
      ok: false,
      error: { name: 'InvalidRequestError', message: expect.stringContaining('request.text') },
    });
    expect(await ask({ id: 4, method: 'sendMessage', request: { sessionId: 's', text: 'x', admin: true } })).toMatchObject({ ok: false });
    expect(stub.calls).toEqual([]);
    // A frame that is not JSON, or has no id, closes the connection.
    const closed = nextClose(r.ws);
    r.ws.send('not json');
    expect((await closed).code).toBe(1008);
  });
});
