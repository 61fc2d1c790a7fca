// An MCP registry (v0.1 API, as a subregistry serves it) on 127.0.0.1 with the given server.json
// entries: `GET /v0.1/servers?search=TEXT` (name or title contains TEXT) and
// `GET /v0.1/servers/{name}/versions/latest`. `close()` takes it away (the app goes offline).
import { createServer } from 'node:http';

export interface FixtureRegistry {
  url: string;
  /** Every path asked, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startFixtureRegistry(servers: Array<Record<string, unknown> & { name: string }>): Promise<FixtureRegistry> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://registry');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/v0.1/servers') {
      const q = (url.searchParams.get('search') ?? '').toLowerCase();
      const found = servers.filter((s) => `${s.name} ${String(s.title ?? '')}`.toLowerCase().includes(q));
      return res.end(JSON.stringify({ servers: found.map((s) => ({ server: s, _meta: {} })), metadata: { count: found.length } }));
    }
    const latest = /^\/v0\.1\/servers\/(.+)\/versions\/latest$/.exec(url.pathname);
    const found = latest && servers.find((s) => s.name === decodeURIComponent(latest[1]!));
    if (found) return res.end(JSON.stringify({ server: found, _meta: {} }));
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
