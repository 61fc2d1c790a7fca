// MCP Apps on the runtime side, against a real (fixture) MCP server over stdio: the call's result
// names its app; openMcpApp builds the view (CSP, permissions, consent for an untrusted server)
// and serves the document from the sandbox origin once; what the app asks is gated (visibility,
// own server only) and runs through the chat's executor, recorded "from the app"; app-only
// tools are never offered to the model; the resource is read again after list_changed.
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../electron/runtime/create-runtime.ts';
import { SecretStore, sessionBackend } from '../../../electron/runtime/store/secret-store.ts';
import type { ApiEvent, ApiHandlers } from '../../../shared/api.ts';
import type { ToolResultMessage } from '../../../shared/chat.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer } from '../../support/fake-openai-server.ts';
import { fixture } from '../../support/mcp-servers.ts';
import { runCli } from '../../support/run-cli.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

// A Python tool answering with an app (the documented way: an embedded ui:// resource).
const OWN_APP_PY = `
def show_chart(title: str = "Sales") -> dict:
    \"\"\"Shows a chart.

    Args:
        title: The chart's title.
    \"\"\"
    html = "<!doctype html><html><body><h1>" + title + "</h1></body></html>"
    return {"type": "resource", "text": "A chart titled " + title + " is shown.",
            "resource": {"uri": "ui://own_app/chart.html", "mimeType": "text/html;profile=mcp-app", "text": html,
                         "_meta": {"ui": {"csp": {"connectDomains": ["https://data.example.com"]}}}}}
`;

let runtime: Runtime;
let fake: FakeOpenAIServer;
let h: ApiHandlers;
const events: ApiEvent[] = [];
let sessionId = '';
let panelCall = '';

beforeAll(async () => {
  fake = await startFakeOpenAI({
    script: (req) => {
      const last = req.body.messages.at(-1);
      if (last?.role === 'tool') return fakeTurn.text('done');
      const call = /^call (\S+)$/.exec(String(last?.content ?? ''));
      return call ? fakeTurn.toolCall(call[1]!, {}) : fakeTurn.text('ok');
    },
  });
  const home = mkdtempSync('/var/tmp/td-apps-');
  const root = mkdtempSync('/var/tmp/td-apps-roots-');
  writeFileSync(join(root, 'own_app.py'), OWN_APP_PY);
  runtime = await createRuntime({ home, secrets: new SecretStore({ keyring: sessionBackend() }), tools: { roots: [root] } });
  const host = await runtime.host({ browserMode: true });
  // The user approves every card (the approvals themselves are checked in the e2e test).
  host.onEvent((e) => {
    events.push(e);
    if (e.type === 'approval.requested') void host.handlers.answerApproval({ sessionId: e.sessionId, requestId: e.request.id, decision: { decision: 'once' } });
  });
  h = host.handlers;
  await h.setSettings({ patch: { providers: [{ id: 'fake', name: 'Fake', kind: 'openai-compatible', baseURL: fake.url, model: 'fake-model' }], activeProviderId: 'fake' } });
  await h.addMcpServer({ name: 'fx', command: process.execPath, args: [fixture('app-server.mjs')] });
  await h.setGroupEnabled({ group: 'fx', enabled: true });
  await until(async () => (await h.listMcpServers({})).find((s) => s.name === 'fx')?.status === 'ready');
  sessionId = (await h.createSession({})).id;
  const { turnId } = await h.sendMessage({ sessionId, text: 'call fx__panel' });
  await until(async () => events.some((e) => e.type === 'session.turn' && e.state === 'finished' && e.turnId === turnId));
  const message = (await h.openSession({ sessionId })).messages.find((m): m is ToolResultMessage => m.role === 'tool')!;
  expect(message.result.app).toEqual({ server: 'fx', uri: 'ui://panel/app.html' });
  panelCall = message.callId;
}, 60_000);

afterAll(async () => {
  await runtime?.close();
  await fake?.close();
});

async function until(check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function get(url: string, host?: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = httpRequest({ host: '127.0.0.1', port: u.port, path: u.pathname, headers: { host: host ?? u.host } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('MCP Apps (runtime)', () => {
  it('never offers app-only tools to the model', () => {
    const offered = (fake.chatRequests()[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(offered).toContain('fx__panel');
    expect(offered).toContain('fx__model-op');
    expect(offered).not.toContain('fx__secret-op');
  });

  it('an untrusted server\'s app is described but not served until "Show this app"', async () => {
    const view = await h.openMcpApp({ sessionId, callId: panelCall });
    expect(view).toMatchObject({ server: 'fx', uri: 'ui://panel/app.html', allowed: false, consents: [], permissions: { requested: ['camera'], granted: false }, allow: '' });
    expect(view.proxyUrl).toBeUndefined();
    expect(view.csp.network).toEqual(['connect https://api.example.com', 'load scripts, styles and media from https://cdn.example.com']);
    expect(view.csp.dropped).toEqual([expect.stringContaining("'unsafe-eval'")]);
    expect(view.toolResult).toEqual({ content: [{ type: 'text', text: 'panel ran (v1)' }] });
  });

  it('serves the document from the sandbox origin once, under its CSP, to the right Host only', async () => {
    expect(await h.allowMcpApp({ server: 'fx', kind: 'show' })).toEqual(['show']);
    const view = await h.openMcpApp({ sessionId, callId: panelCall });
    expect(view.allowed).toBe(true);
    const proxyUrl = new URL(view.proxyUrl!);
    expect(proxyUrl.hostname).toBe('localhost');
    expect(proxyUrl.port).not.toBe('');
    expect((await get(view.proxyUrl!, 'evil.example:80')).status).toBe(403);
    const proxy = await get(view.proxyUrl!);
    expect(proxy.status).toBe(200);
    const token = proxyUrl.pathname.split('/').at(-1)!;
    expect(proxy.body).toContain(`<iframe id="app" src="/app/${token}" sandbox="allow-scripts allow-forms" allow=""`);
    expect(String(proxy.headers['content-security-policy'])).toContain("default-src 'none'");
    expect((await get(view.proxyUrl!)).status).toBe(404);
    const doc = await get(`${proxyUrl.origin}/app/${token}`);
    expect(doc.status).toBe(200);
    expect(doc.body).toContain('<h1>panel v1</h1>');
    expect(doc.headers['content-security-policy']).toBe(view.csp.policy);
    expect((await get(`${proxyUrl.origin}/app/${token}`)).status).toBe(404);
    // Permissions are delegated only after the user allowed them for the server.
    await h.allowMcpApp({ server: 'fx', kind: 'permissions' });
    const granted = await h.openMcpApp({ sessionId, callId: panelCall });
    expect(granted.allow).toBe('camera');
    expect((await get(granted.proxyUrl!)).body).toContain('allow="camera"');
  });

  it('runs app-visible tools of its own server through the executor, recorded under the app; refuses the others', async () => {
    const ran = await h.callToolFromApp({ sessionId, callId: panelCall, name: 'secret-op', args: {} });
    expect(ran).toEqual({ content: [{ type: 'text', text: 'secret-op ran (v1)' }] });
    const refused = await h.callToolFromApp({ sessionId, callId: panelCall, name: 'model-op', args: {} });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('not visible to apps');
    const missing = await h.callToolFromApp({ sessionId, callId: panelCall, name: 'nope', args: {} });
    expect(missing).toEqual({ content: [{ type: 'text', text: 'Refused: no tool "nope" on this app\'s server.' }], isError: true });
    const tools = (await h.openSession({ sessionId })).messages.filter((m): m is ToolResultMessage => m.role === 'tool');
    const fromApp = tools.filter((m) => m.fromApp === panelCall);
    expect(fromApp.map((m) => m.toolName)).toEqual(['fx__secret-op']);
    expect(events.some((e) => e.type === 'approval.requested' && e.request.toolName === 'fx__secret-op')).toBe(true);
    expect(events.some((e) => e.type === 'tool.started' && e.toolName === 'fx__secret-op' && e.fromApp === panelCall)).toBe(true);
    await expect(h.callToolFromApp({ sessionId, callId: 'call-none', name: 'secret-op', args: {} })).rejects.toThrow(/no call "call-none" with an app/);
  });

  it('reads resources of its own server, and the app again after resources/list_changed', async () => {
    expect(await h.readResourceFromApp({ sessionId, callId: panelCall, uri: 'ui://other/x' })).toEqual({ contents: [{ uri: 'ui://other/x', mimeType: 'text/plain', text: 'text of ui://other/x' }] });
    await h.callToolFromApp({ sessionId, callId: panelCall, name: 'bump', args: {} });
    await expect
      .poll(async () => {
        const view = await h.openMcpApp({ sessionId, callId: panelCall });
        return (await get(`${new URL(view.proxyUrl!).origin}/proxy/${view.proxyUrl!.split('/').at(-1)}`)).status === 200 && (await get(view.proxyUrl!.replace('/proxy/', '/app/'))).body.includes('panel v2');
      }, { timeout: 10_000 })
      .toBe(true);
  });

  it('the CLI prints the text and says that an app exists', async () => {
    const home = mkdtempSync('/var/tmp/td-apps-cli-');
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [fixture('app-server.mjs')] } }, groupDefaults: { fx: true } }));
    const run = await runCli(home, ['tools', 'run', 'fx__panel', '--yes']);
    expect(run.stdout.trim()).toBe('panel ran (v1)');
    expect(run.stderr).toContain('fx__panel also has an interactive app (ui://panel/app.html); the Tooldesk app shows it in the chat, this prints its text.');
    expect(run.code).toBe(0);
  });

  it('a Python tool returns an app as a ui:// resource: the model reads its text, the chat shows the app', async () => {
    const name = (await h.listTools({})).groups.flatMap((g) => g.tools).find((t) => t.name.endsWith('show_chart'))!.name;
    await h.setGroupEnabled({ group: 'own_app', enabled: true });
    const own = (await h.createSession({})).id;
    const { turnId } = await h.sendMessage({ sessionId: own, text: `call ${name}` });
    await until(async () => events.some((e) => e.type === 'session.turn' && e.state === 'finished' && e.turnId === turnId));
    const message = (await h.openSession({ sessionId: own })).messages.find((m): m is ToolResultMessage => m.role === 'tool')!;
    expect(message.result.app, JSON.stringify(message.result).slice(0, 600)).toEqual({ uri: 'ui://own_app/chart.html' });
    expect(message.content).toBe('A chart titled Sales is shown.');
    const sent = JSON.stringify(fake.chatRequests().at(-1)!.body.messages);
    expect(sent).toContain('A chart titled Sales is shown.');
    expect(sent).not.toContain('<h1>');
    const view = await h.openMcpApp({ sessionId: own, callId: message.callId });
    expect(view).toMatchObject({ allowed: true, uri: 'ui://own_app/chart.html', csp: { network: ['connect https://data.example.com'] } });
    expect(view.server).toBeUndefined();
    expect((await get(view.proxyUrl!)).status).toBe(200);
    expect((await get(view.proxyUrl!.replace('/proxy/', '/app/'))).body).toContain('<h1>Sales</h1>');
    // It has no server: it cannot call tools.
    const refused = await h.callToolFromApp({ sessionId: own, callId: message.callId, name: 'secret-op', args: {} });
    expect(refused.isError).toBe(true);
  });

  it('ui/update-model-context: the model sees the app\'s text on the next request, bounded', async () => {
    expect(await h.updateModelContextFromApp({ sessionId, callId: panelCall, text: 'Selected region: EMEA' })).toEqual({ chars: 21, truncated: false });
    const { turnId } = await h.sendMessage({ sessionId, text: 'what did I select?' });
    await until(async () => events.some((e) => e.type === 'session.turn' && e.state === 'finished' && e.turnId === turnId));
    const system = JSON.stringify(fake.chatRequests().at(-1)!.body.messages[0]);
    expect(system).toContain('[app ui://panel/app.html of MCP server fx]');
    expect(system).toContain('Selected region: EMEA');
    expect((await h.updateModelContextFromApp({ sessionId, callId: panelCall, text: 'y'.repeat(5000) })).truncated).toBe(true);
  });

  it('a stored app of a switched-off server is not shown, and the server is not started for it', async () => {
    await h.setGroupEnabled({ group: 'fx', enabled: false });
    await until(async () => (await h.listMcpServers({})).find((s) => s.name === 'fx')?.status !== 'ready');
    const view = await h.openMcpApp({ sessionId, callId: panelCall });
    expect(view.problem).toBe('the MCP server "fx" is switched off; switch it on (Settings → MCP servers) to show its app');
    expect(view.proxyUrl).toBeUndefined();
    await expect(h.readResourceFromApp({ sessionId, callId: panelCall, uri: 'ui://other/x' })).rejects.toThrow('the MCP server "fx" is switched off');
    await new Promise((r) => setTimeout(r, 300));
    expect((await h.listMcpServers({})).find((s) => s.name === 'fx')?.status).not.toBe('ready');
    expect((await h.listMcpServers({})).find((s) => s.name === 'fx')?.status).not.toBe('starting');
  });
});
