// The app and `tooldesk mcp list --status` count a server's tools differently when they offer it
// different capabilities (issue 25): the reference server lists its elicitation and sampling tools
// only to a client that offers them, as the app does and the CLI does not. Both say so, and both
// count the tools switched off in Tools the same way.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../electron/runtime/create-runtime.ts';
import { SecretStore, sessionBackend } from '../../../electron/runtime/store/secret-store.ts';
import { mcpToolCountText } from '../../../shared/mcp-tool-count.ts';
import { EVERYTHING, fixture, testManager } from '../../support/mcp-servers.ts';
import { runCli } from '../../support/run-cli.ts';

let runtime: Runtime | undefined;
afterAll(async () => {
  await runtime?.close();
});

describe('a server that lists more tools to a client offering elicitation and sampling', () => {
  it('is counted higher in the app than in mcp list --status, and each says why', async () => {
    const home = mkdtempSync('/var/tmp/td-mcp-counts-');
    const settings = {
      mcpServers: { ev: { command: process.execPath, args: [EVERYTHING, 'stdio'], sandbox: 'off' } },
      groupDefaults: { ev: true },
      toolDefaults: { ev__echo: false },
    };
    writeFileSync(join(home, 'settings.json'), JSON.stringify(settings));

    const cli = await runCli(home, ['mcp', 'list', '--status']);
    expect(cli.code).toBe(0);
    const cliCount = Number(/ready with (\d+) tools \(1 switched off\)/.exec(cli.stdout)?.[1]);
    expect(cli.stdout).toContain('counted without elicitation or sampling, which the app offers: a server that lists tools for them shows more there');

    runtime = await createRuntime({ home, secrets: new SecretStore({ keyring: sessionBackend() }), tools: { roots: [mkdtempSync('/var/tmp/td-mcp-counts-roots-')] } });
    const { handlers } = await runtime.host({ browserMode: true });
    let row = (await handlers.listMcpServers({})).find((s) => s.name === 'ev');
    for (const end = Date.now() + 30_000; row?.status !== 'ready' && Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
      row = (await handlers.listMcpServers({})).find((s) => s.name === 'ev');
    }
    expect(row).toMatchObject({ status: 'ready', appOnlyTools: 0, switchedOffTools: 1, offered: ['elicitation', 'sampling'] });
    expect(cliCount).toBeGreaterThan(0);
    expect(row!.tools).toBeGreaterThan(cliCount);
  }, 60_000);
});

describe('a server with a tool only for its apps', () => {
  it('counts it apart: the model never gets it', async () => {
    const manager = testManager();
    try {
      await manager.configure({ apps: { command: process.execPath, args: [fixture('app-server.mjs')], sandbox: 'off' } }, { apps: true });
      await manager.startAll(['apps']);
      const state = manager.connection('apps')!.state();
      expect(state.appOnlyTools).toBe(1);
      expect(mcpToolCountText(state)).toBe(`${state.tools} tools (1 only for apps)`);
    } finally {
      await manager.close();
    }
  }, 30_000);
});
