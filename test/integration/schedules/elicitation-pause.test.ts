// An MCP server's question (elicitation) during a scheduled run: the real "everything" server asks
// for a form; the run pauses with the question in the Inbox; approving with the form's content
// sends it to the server and the run ends done. With on-ask deny the form is declined at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRuntime, type Runtime } from '../../../electron/runtime/create-runtime.ts';
import { SecretStore, sessionBackend } from '../../../electron/runtime/store/secret-store.ts';
import { fakeTurn, startFakeOpenAI, type FakeOpenAIServer } from '../../support/fake-openai-server.ts';
import { EVERYTHING } from '../../support/mcp-servers.ts';

vi.setConfig({ testTimeout: 90_000 });

let runtime: Runtime;
let fake: FakeOpenAIServer;
let home: string;

beforeAll(async () => {
  fake = await startFakeOpenAI({
    script: (request) => {
      const last = request.body.messages.at(-1);
      if (last?.role === 'tool') return fakeTurn.text(`The server said: ${String(last.content).slice(0, 200)}`);
      return fakeTurn.toolCall('ev__trigger-elicitation-request', {});
    },
  });
  home = mkdtempSync('/var/tmp/td-sched-elicit-');
  runtime = await createRuntime({ home, secrets: new SecretStore({ keyring: sessionBackend() }), tools: { roots: [mkdtempSync('/var/tmp/td-sched-roots-')] } });
  const h = (await runtime.host({ browserMode: true })).handlers;
  await h.setSettings({
    patch: {
      providers: [{ id: 'fake', name: 'Fake', kind: 'openai-compatible', baseURL: fake.url, model: 'fake-model' }],
      activeProviderId: 'fake',
      permissionOverrides: { 'ev__trigger-elicitation-request': { executionPolicy: 'auto' } },
    },
  });
  await h.addMcpServer({ name: 'ev', command: process.execPath, args: [EVERYTHING, 'stdio'] });
  await h.setGroupEnabled({ group: 'ev', enabled: true });
  // The elicitation tool appears after initialize (list_changed).
  for (let i = 0; i < 300 && !(await h.listTools({})).groups.find((g) => g.name === 'ev')?.tools.some((t) => t.name === 'ev__trigger-elicitation-request'); i++) await new Promise((r) => setTimeout(r, 100));
  await h.saveSchedule({ schedule: { name: 'form', prompt: 'ask me', every: '1d' } });
  await h.saveSchedule({ schedule: { name: 'form-deny', prompt: 'ask me', every: '1d', onAsk: 'deny' } });
}, 90_000);

afterAll(async () => {
  await runtime?.close();
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('an MCP elicitation in a scheduled run', () => {
  it('pauses into the Inbox; approved with the form, the server gets it and the run ends done', async () => {
    const scheduler = await runtime.scheduler();
    const paused = await scheduler.runNow('form');
    expect(paused.status).toBe('waiting');
    const [item] = scheduler.inbox();
    expect(item).toMatchObject({ kind: 'elicitation', toolName: 'ev', runId: paused.id });
    const done = await scheduler.answer(item!.id, { decision: 'approve', content: { name: 'Grace Hopper', check: true } });
    expect(done.status).toBe('done');
    const sessions = await runtime.sessions();
    const tool = sessions.open(done.sessionId).messages().find((m) => m.role === 'tool');
    expect(JSON.stringify(tool)).toContain('Grace Hopper');
  });

  it('with on-ask deny declines the form at once and ends denied', async () => {
    const run = await (await runtime.scheduler()).runNow('form-deny');
    expect(run).toMatchObject({ status: 'denied', refused: 1 });
    const tool = (await runtime.sessions()).open(run.sessionId).messages().find((m) => m.role === 'tool');
    expect(JSON.stringify(tool)).toMatch(/decline/i);
  });
});
