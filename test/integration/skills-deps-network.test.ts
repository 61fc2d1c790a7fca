// Issue #34 "Dependencies": the install step's network is the package index only. A real
// `tooldesk skills deps` installs from an HTTP index on 127.0.0.1 (named only by pip's own
// config) and says which host it could reach; inside the very same kind of step — network off,
// the forwarder, the allow-list proxy — a direct connection to another local port fails, a
// proxied one to it is refused, and a proxied one to the index goes through.
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultSettings } from '../../shared/settings.ts';
import { indexOnlyNetwork } from '../../electron/runtime/sources/skills/deps/index-only-network.ts';
import { pipIndexes } from '../../electron/runtime/sources/skills/deps/pip-index-hosts.ts';
import { sandboxSpecFor } from '../../electron/runtime/sources/process/sandbox-spec-for.ts';
import { createSourceContext } from '../../electron/runtime/sources/source-context.ts';
import { realPython } from '../support/real-python.ts';
import { runCli } from '../support/run-cli.ts';
import { writeSkill } from '../support/skill-fixtures.ts';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

// A wheel from this machine's local package mirror, served by the test's own HTTP index.
const WHEEL_DIR = '/opt/pypi/files';
const WHEEL = readdirSync(WHEEL_DIR).find((f) => /^six-.*\.whl$/.test(f))!;

let base: string;
let index: Server;
let indexPort: number;
let other: TcpServer;
let otherPort: number;
let otherHits = 0;

const listen = (server: Server | TcpServer) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'td-deps-net-'));
  index = createServer((req, res) => {
    // Through a proxy a plain-HTTP request may arrive in absolute form: its path is what counts.
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/simple/six/') {
      res.setHeader('content-type', 'text/html');
      res.end(`<!DOCTYPE html><html><body><a href="/files/${WHEEL}">${WHEEL}</a></body></html>`);
    } else if (path === `/files/${WHEEL}`) res.end(readFileSync(join(WHEEL_DIR, WHEEL)));
    else {
      res.statusCode = 404;
      res.end();
    }
  });
  indexPort = await listen(index);
  other = createTcpServer((socket) => {
    otherHits++;
    socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nno');
  });
  otherPort = await listen(other);
});

afterAll(async () => {
  await new Promise((r) => index.close(r));
  await new Promise((r) => other.close(r));
  rmSync(base, { recursive: true, force: true });
});

describe('pip config → the hosts an install may reach', () => {
  it('reads index-url, extra-index-url and find-links; on-disk locations need no network; no index means PyPI and its file host', () => {
    expect(pipIndexes("global.index-url='http://127.0.0.1:3141/simple/'\nglobal.find-links='/opt/wheels'").hosts).toEqual(['127.0.0.1:3141']);
    expect(pipIndexes("global.extra-index-url='file:///opt/pypi/simple file:///opt/more/simple'\nglobal.no-index='true'").hosts).toEqual([]);
    expect(pipIndexes("global.extra-index-url='file:///opt/pypi/simple'").hosts).toEqual(['pypi.org:443', 'files.pythonhosted.org:443']);
    expect(pipIndexes("global.index-url='https://a.example/simple'\n:env:.index-url='https://mirror.example:8443/simple'").hosts).toEqual(['mirror.example:8443']);
  });
});

describe('skills deps: the network of the install step', () => {
  it('installs from the configured HTTP index and reports that only its host was reachable', async () => {
    const userHome = join(base, 'user');
    const home = join(base, 'tooldesk');
    for (const d of [userHome, home]) mkdirSync(d, { recursive: true });
    writeSkill(join(home, 'skills'), 'uses-six', { name: 'uses-six', description: 'Needs six.' });
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ pythonPath: realPython() }));
    // pip as this test configures it, through pip's own variables (a config file under the
    // private /tmp would be out of the sandbox's sight); find-links on the same host replaces
    // the machine's on-disk wheels folder.
    const env = { HOME: userHome, PIP_INDEX_URL: `http://127.0.0.1:${indexPort}/simple/`, PIP_FIND_LINKS: `http://127.0.0.1:${indexPort}/simple/six/` };
    const deps = await runCli(home, ['skills', 'deps', 'uses-six', '--add', 'six', '--yes'], '', env);
    expect(deps.stderr).toBe('');
    expect(deps.stdout).toContain('installed for skill uses-six: six (the import works)');
    expect(deps.stdout).toContain(`network: only 127.0.0.1:${indexPort})`);
    expect(existsSync(join(home, 'skill-envs/uses-six/bin/python'))).toBe(true);
  });

  it('inside the step, another local port is unreachable directly and refused through the proxy; the index answers', async () => {
    const python = realPython()!;
    const settings = defaultSettings();
    const stepHome = mkdtempSync(join(base, 'step-'));
    const ctx = createSourceContext(settings, stepHome);
    const staging = mkdtempSync(join(tmpdir(), 'td-deps-step-'));
    const net = await indexOnlyNetwork(staging, python, [`127.0.0.1:${indexPort}`]);
    const probe = `
import os, socket, urllib.request
def direct(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=3).close()
        return "connected"
    except OSError as e:
        return "failed"
proxy = urllib.request.build_opener(urllib.request.ProxyHandler({"http": os.environ["TD_PROXY"]}))
def via(port, path):
    try:
        return str(proxy.open(f"http://127.0.0.1:{port}{path}", timeout=5).status)
    except urllib.error.HTTPError as e:
        return str(e.code)
print("direct-other", direct(${otherPort}))
print("direct-index", direct(${indexPort}))
print("proxy-other", via(${otherPort}, "/"))
print("proxy-index", via(${indexPort}, "/simple/six/"))
`;
    writeFileSync(join(staging, 'probe.py'), probe);
    const box = { ...sandboxSpecFor(ctx, 'skill-deps', staging, false), workDir: staging, writableToolDir: true };
    const run = await ctx.runner({
      command: '/bin/sh',
      args: ['-c', `${net.prelude}\n"${python}" -I -S probe.py; rc=$?\n${net.epilogue}\nexit $rc`],
      cwd: staging,
      timeoutMs: 60_000,
      sandbox: box,
    });
    await net.close();
    rmSync(staging, { recursive: true, force: true });
    expect(run.sandboxed).toBe(true);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toEqual(['direct-other failed', 'direct-index failed', 'proxy-other 403', 'proxy-index 200']);
    expect(net.refused).toEqual([`127.0.0.1:${otherPort}`]);
    expect(otherHits).toBe(0);
  });
});
