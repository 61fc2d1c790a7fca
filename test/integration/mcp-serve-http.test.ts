// `tooldesk mcp serve --http` as a real child process: the SDK's Streamable HTTP client with the
// bearer token (kept in the keychain when there is one), 401 for a wrong or missing token, 403 for
// a foreign Host or Origin, 413 for an oversized body, a bound on sessions, and a client that
// hangs up mid-call getting its tool process killed. `--no-auth` says so and needs no token.
import { request } from 'node:http';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitNoneWithMarker } from '../support/live-processes.ts';
import { closeHttp, connectHttp, serveHome, startHttp, textOf, type HttpServe, type ServeHome } from '../support/mcp-serve-harness.ts';

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

/** A raw POST with full control over Host, Origin and the body. */
function post(url: string, headers: Record<string, string>, body: string | Buffer): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('mcp serve --http with a bearer token', () => {
  let serve: ServeHome;
  let server: HttpServe;
  beforeAll(async () => {
    serve = serveHome();
    server = await startHttp(serve);
  }, 40_000);
  afterAll(async () => {
    await server?.stop();
    serve?.cleanup();
  });

  it('prints the URL, the token once and ready-to-paste host configs', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const out = server.stdout();
    expect(out).toContain(`"Authorization": "Bearer ${server.token}"`);
    expect(out).toContain('"mcpServers"');
    expect(out).toContain('"type": "http"');
  });

  it('serves the SDK client that sends the token: list, call, approval through elicitation', async () => {
    const client = await connectHttp(server, { elicit: () => ({ action: 'accept', content: { decision: 'reject', reason: 'over http, no' } }) });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['word_count', 'script_json_pick', 'unit_convert', 'countdown', 'guarded_echo']));
      expect(textOf(await client.callTool({ name: 'word_count', arguments: { text: 'a b c' } }))).toContain('"count":3');
      const progress: unknown[] = [];
      const rejected = await client.callTool({ name: 'guarded_echo', arguments: { text: 'x' } }, { onprogress: (p) => progress.push(p) });
      expect(rejected.isError).toBe(true);
      expect(textOf(rejected)).toContain('over http, no');
    } finally {
      await closeHttp(client);
    }
  }, 30_000);

  it('refuses a wrong or missing token with 401, before any MCP processing', async () => {
    const wrong = await post(server.url, { authorization: 'Bearer not-the-token' }, JSON.stringify(INIT));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('wrong bearer token');
    expect(wrong.headers['www-authenticate']).toMatch(/^Bearer/);
    const missing = await post(server.url, {}, JSON.stringify(INIT));
    expect(missing.status).toBe(401);
    await expect(connectHttp(server, { token: 'nope' })).rejects.toThrow(/401|Unauthorized/);
  });

  it('refuses a foreign Host or Origin with 403 even with the right token (DNS rebinding)', async () => {
    const auth = { authorization: `Bearer ${server.token}` };
    const port = new URL(server.url).port;
    expect((await post(server.url, { ...auth, host: `evil.example:${port}` }, JSON.stringify(INIT))).status).toBe(403);
    expect((await post(server.url, { ...auth, origin: 'http://evil.example' }, JSON.stringify(INIT))).status).toBe(403);
    expect((await post(server.url, { ...auth, origin: `http://127.0.0.1:${port}` }, JSON.stringify(INIT))).status).toBe(200);
  });

  it('answers an oversized body with 413 and bad JSON with a parse error, and keeps serving', async () => {
    const auth = { authorization: `Bearer ${server.token}` };
    const huge = await post(server.url, auth, Buffer.alloc(17 * 1024 * 1024, 0x20));
    expect(huge.status).toBe(413);
    expect(huge.body).toContain('larger than 16 MiB');
    const garbage = await post(server.url, auth, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body).error.code).toBe(-32700);
    const client = await connectHttp(server);
    try {
      // 10 MB of arguments fits the limit and is answered like any call
      const big = await client.callTool({ name: 'word_count', arguments: { text: 'a '.repeat(5 * 1024 * 1024), unit: 'characters' } });
      expect(textOf(big)).toContain(`"count":${10 * 1024 * 1024}`);
    } finally {
      await closeHttp(client);
    }
  }, 60_000);

  it('bounds the number of sessions with a clear error, and frees a slot when one closes', async () => {
    const clients = [];
    try {
      // Earlier tests may have left a raw session open (as a careless client would): fill what is left.
      let refusal: Error | undefined;
      for (let i = 0; i < 40 && !refusal; i++) {
        const next = await connectHttp(server).catch((error: Error) => error);
        if (next instanceof Error) refusal = next;
        else clients.push(next);
      }
      expect(refusal?.message).toMatch(/Too many MCP sessions \(32\)/);
      expect(clients.length).toBeGreaterThanOrEqual(30);
      await closeHttp(clients.pop()!);
      const again = await connectHttp(server).catch((error: Error) => error);
      if (again instanceof Error) throw again;
      clients.push(again);
    } finally {
      await Promise.all(clients.map((c) => closeHttp(c).catch(() => {})));
    }
  }, 60_000);

  it('keeps the token in the keychain: a restart reuses it without printing it again', async () => {
    const second = await startHttp(serve);
    try {
      if (server.stdout().includes('kept in the keychain')) {
        expect(second.stdout()).toContain('Bearer token: the one in the keychain');
        expect(second.stdout()).not.toContain(server.token!);
        const client = await connectHttp(second, { token: server.token! });
        await closeHttp(client);
      } else {
        // No keychain on this machine: each run has its own token, and says so.
        expect(server.stdout()).toContain('this token works for this run only');
        expect(second.token).not.toBe(server.token);
      }
    } finally {
      await second.stop();
    }
  }, 40_000);

  it('a client that hangs up mid-call gets its tool process killed', async () => {
    const client = await connectHttp(server);
    const seconds = `${60 + Math.floor(Math.random() * 30)}.${Date.now() % 100000}`;
    const controller = new AbortController();
    const call = client.callTool({ name: 'script_sleeper', arguments: { seconds } }, { signal: controller.signal }).catch(() => undefined);
    const live = () => {
      try {
        return execFileSync('pgrep', ['-f', `sleep ${seconds}`]).toString().trim() !== '';
      } catch {
        return false;
      }
    };
    const end = Date.now() + 10_000;
    while (!live() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(live()).toBe(true);
    controller.abort();
    await call;
    expect(await waitNoneWithMarker(`sleep\u0000${seconds}`, 8000)).toEqual([]);
    await closeHttp(client);
  }, 30_000);
});

describe('mcp serve --http --no-auth', () => {
  let serve: ServeHome;
  let server: HttpServe;
  beforeAll(async () => {
    serve = serveHome();
    server = await startHttp(serve, ['--no-auth']);
  }, 40_000);
  afterAll(async () => {
    await server?.stop();
    serve?.cleanup();
  });

  it('says authentication is off and serves without a token; Host/Origin are still checked', async () => {
    expect(server.stdout()).toContain('authentication is OFF');
    expect(server.token).toBeUndefined();
    const client = await connectHttp(server, { token: null });
    try {
      expect(textOf(await client.callTool({ name: 'script_json_pick', arguments: { json: '{"k": "v"}', path: 'k' } }))).toContain('v');
    } finally {
      await closeHttp(client);
    }
    expect((await post(server.url, { origin: 'http://evil.example' }, JSON.stringify(INIT))).status).toBe(403);
  }, 30_000);
});
