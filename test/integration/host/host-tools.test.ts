// The real host's tools side over the WebSocket transport: user tools from TOOLDESK_HOME/tools,
// group toggles that gate running, manual runs into a session, hot reload as a tools.changed event.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

import { hostApps } from '../../support/host-app.ts';

const examples = fileURLToPath(new URL('../../../resources/examples/', import.meta.url));
const apps = hostApps();
afterEach(() => apps.closeAll());

const startApp = (home: string, watchTools: boolean) => apps.start(home, { watchTools });

describe('host tools', () => {
  it('lists user tools, refuses them while their group is off, runs them when on', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-'));
    cpSync(join(examples, 'json_pick'), join(home, 'tools', 'json_pick'), { recursive: true });
    const { client } = await startApp(home, false);

    const state = await client.listTools();
    const script = state.groups.find((g) => g.name === 'script');
    expect(script).toMatchObject({ enabled: false, builtin: false });
    expect(script?.tools.map((t) => t.name)).toEqual(['script_json_pick']);
    expect(script?.tools[0]).toMatchObject({ format: 'script', enabled: true, permission: { executionPolicy: 'auto' } });

    const session = await client.createSession();
    const args = { json: '{"a": {"b": [1, 2]}}', path: 'a.b.1' };
    const refused = await client.runTool({ sessionId: session.id, name: 'script_json_pick', args });
    expect(refused.status).not.toBe('SUCCESS');

    await client.setGroupEnabled({ group: 'script', enabled: true });
    const ran = await client.runTool({ sessionId: session.id, name: 'script_json_pick', args });
    expect(ran).toMatchObject({ status: 'SUCCESS' });
    expect(ran.finalText).toContain('2');

    await client.setToolEnabled({ tool: 'script_json_pick', enabled: false });
    expect((await client.listTools()).groups.find((g) => g.name === 'script')?.tools[0]?.enabled).toBe(false);
    expect((await client.runTool({ sessionId: session.id, name: 'script_json_pick', args })).status).not.toBe('SUCCESS');
    await expect(client.setToolEnabled({ tool: 'nope', enabled: true })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('picks up a tool dropped into the tools folder and announces it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-'));
    const { client, events } = await startApp(home, true);
    expect((await client.listTools()).groups.some((g) => g.name === 'script')).toBe(false);
    cpSync(join(examples, 'json_pick'), join(home, 'tools', 'json_pick'), { recursive: true });
    await expect
      .poll(() => events.some((e) => e.type === 'tools.changed' && e.tools.groups.some((g) => g.name === 'script')), { timeout: 10_000 })
      .toBe(true);
    expect((await client.reloadTools()).groups.find((g) => g.name === 'script')?.tools).toHaveLength(1);
  });

  it('creates, reads, updates, runs and deletes a three-layer tool through the API', async () => {
    const home = mkdtempSync(join(tmpdir(), 'td-'));
    const { client } = await startApp(home, false);
    const created = await client.createTool({ format: 'three-layer', name: 'shout' });
    expect(created).toMatchObject({ format: 'three-layer', name: 'shout', tools: ['shout'], files: { format: 'three-layer', name: 'shout', dir: join(home, 'tools', 'shout') } });
    expect(Object.keys(created.files!.files).sort()).toEqual(['definition.json', 'execution.py', 'meta.json', 'return.json']);
    expect((await client.listTools()).groups.find((g) => g.name === 'custom')?.tools.map((t) => t.name)).toEqual(['shout']);
    // A tool the user just made is meant to be used: its group comes on (it was never set).
    expect((await client.getSettings()).groupDefaults.custom).toBe(true);
    expect((await client.listTools()).groups.find((g) => g.name === 'custom')?.enabled).toBe(true);

    const session = await client.createSession();
    // A new custom tool asks before it runs: answer each card as the UI would.
    const asked: string[] = [];
    client.onEvent((e) => {
      if (e.type !== 'approval.requested') return;
      asked.push(e.request.toolName);
      void client.answerApproval({ sessionId: e.sessionId, requestId: e.request.id, decision: { decision: 'once' } });
    });
    const first = await client.runTool({ sessionId: session.id, name: 'shout', args: { text: "it's", repeat: 2 } });
    expect(first.status).toBe('SUCCESS');
    expect(first.finalText).toContain("it's it's");

    const execution = "text = '{text}'\nprint(text.upper())\n";
    const updated = await client.updateTool({ name: 'shout', files: { 'execution.py': execution } });
    expect(updated.files['execution.py']).toBe(execution);
    expect((await client.readTool({ name: 'shout' })).files['execution.py']).toBe(execution);
    expect((await client.runTool({ sessionId: session.id, name: 'shout', args: { text: 'hey' } })).finalText).toContain('HEY');
    expect(asked).toEqual(['shout', 'shout']);

    await expect(client.updateTool({ name: 'shout', files: { '../evil.py': 'x' } })).rejects.toMatchObject({ name: 'AuthoringError' });
    await expect(client.createTool({ format: 'three-layer', name: '../escape' })).rejects.toMatchObject({ name: 'AuthoringError' });
    await expect(client.createTool({ format: 'three-layer', name: 'shout' })).rejects.toMatchObject({ name: 'AuthoringError' });

    // A group the user switched off stays off when another tool is created in it.
    await client.setGroupEnabled({ group: 'custom', enabled: false });
    await client.createTool({ format: 'three-layer', name: 'whisper' });
    expect((await client.getSettings()).groupDefaults.custom).toBe(false);
    await client.deleteTool({ name: 'whisper' });

    await client.deleteTool({ name: 'shout' });
    expect((await client.listTools()).groups.some((g) => g.name === 'custom')).toBe(false);
    await expect(client.readTool({ name: 'shout' })).rejects.toMatchObject({ name: 'NotFoundError' });
  });
});
