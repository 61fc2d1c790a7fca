// "New tool" through the real host over the WebSocket, in every format `tooldesk tools new`
// offers: created from the one template set, listed at once, its group switched on (unless the
// user switched it off), and run through a session where its interpreter exists.
import { existsSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WsClient } from '../../../renderer/src/api/ws-client.ts';
import { commandExists } from '../../../electron/runtime/sources/discovery/missing-interpreter.ts';
import { NEW_TOOL_FORMAT_INFO, NEW_TOOL_FORMATS, newToolRegisteredName, type NewToolFormat } from '../../../shared/new-tool-formats.ts';
import { hostApps } from '../../support/host-app.ts';

const apps = hostApps();
afterEach(() => apps.closeAll());

const home = () => mkdtempSync(join(tmpdir(), 'td-'));
const pwshMissing = !commandExists('pwsh');

/** Answers every approval card once, as a user clicking "Approve once" would. */
function approveAll(client: WsClient): void {
  client.onEvent((e) => {
    if (e.type === 'approval.requested') void client.answerApproval({ sessionId: e.sessionId, requestId: e.request.id, decision: { decision: 'once' } });
  });
}

describe('createTool in every format', () => {
  it.each(NEW_TOOL_FORMATS)('%s: created in the first tools folder, listed, its group on, and it runs', async (format: NewToolFormat) => {
    const h = home();
    const { client } = await apps.start(h);
    approveAll(client);
    const name = `made_${format.replace('-', '_')}`;
    const registered = newToolRegisteredName(format, name);
    const created = await client.createTool({ format, name });
    const info = NEW_TOOL_FORMAT_INFO[format];
    const entry = join(h, 'tools', info.extension ? name + info.extension : name);
    expect(created).toMatchObject({ format, name, tools: [registered] });
    expect(created.paths.every((p) => p === entry || p.startsWith(entry + '/'))).toBe(true);
    expect(created.paths.every(existsSync)).toBe(true);
    // Only the folder formats open in the app's editor.
    expect(created.files !== undefined).toBe(info.extension === undefined);

    const listed = (await client.listTools()).groups.find((g) => g.tools.some((t) => t.name === registered))!;
    expect(listed.tools.find((t) => t.name === registered)).toMatchObject({ format: info.loadsAs, source: { file: info.extension ? entry : expect.stringContaining(entry) } });
    expect(listed.enabled).toBe(true);
    expect((await client.getSettings()).groupDefaults[listed.name]).toBe(true);

    const session = await client.createSession();
    // PowerShell parameters are PascalCase, as its template writes them.
    const args = format === 'powershell' ? { Text: 'hi', Repeat: 2 } : { text: 'hi', repeat: 2 };
    const result = await client.runTool({ sessionId: session.id, name: registered, args });
    if (format === 'powershell' && pwshMissing) {
      // Listed but flagged before anyone runs it, and the run says what is missing.
      expect(created.diagnostics).toContainEqual(expect.objectContaining({ code: 'interpreter-missing', file: entry }));
      expect(result.status).toBe('ERROR');
      expect(result.error).toMatch(/pwsh|PowerShell/);
      return;
    }
    expect(created.diagnostics).toEqual([]);
    expect(result.status, JSON.stringify(result)).toBe('SUCCESS');
    expect(result.finalText).toContain('hi hi');
  });

  it('module tools are created where the tool host loads them and run out of process', async () => {
    const h = home();
    const { client } = await apps.start(h);
    approveAll(client);
    const created = await client.createTool({ format: 'module-js', name: 'host_made' });
    const tool = (await client.listTools()).groups.flatMap((g) => g.tools).find((t) => t.name === 'host_made')!;
    expect(tool.source).toMatchObject({ format: 'module', file: created.paths[0], root: join(h, 'tools') });
    // Edited as a user would in their editor: the tool now tells which process runs it.
    writeFileSync(
      created.paths[0]!,
      'export default () => ({ name: "host_made", description: "pid", parameters: { type: "object", properties: {} }, async execute() { return { content: [{ type: "text", text: `pid ${process.pid}` }] }; } });\n',
    );
    await client.reloadTools();
    const session = await client.createSession();
    const result = await client.runTool({ sessionId: session.id, name: 'host_made', args: {} });
    expect(result.status, JSON.stringify(result)).toBe('SUCCESS');
    const pid = Number(/pid (\d+)/.exec(result.finalText ?? '')?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
  });

  it('a group the user switched off stays off when a tool is created in it, whatever the format', async () => {
    const h = home();
    const { client } = await apps.start(h);
    await client.createTool({ format: 'script-js', name: 'first_script' });
    await client.setGroupEnabled({ group: 'script', enabled: false });
    await client.createTool({ format: 'script-py', name: 'second_script' });
    expect((await client.getSettings()).groupDefaults.script).toBe(false);
    expect((await client.listTools()).groups.find((g) => g.name === 'script')).toMatchObject({ enabled: false });

    // A Python module's group is its file name: switched off before the file even exists.
    await client.setSettings({ patch: { groupDefaults: { script: false, quiet_py: false } } });
    const created = await client.createTool({ format: 'python', name: 'quiet_py' });
    expect(created.tools).toEqual(['quiet_py']);
    expect((await client.getSettings()).groupDefaults.quiet_py).toBe(false);
    expect((await client.listTools()).groups.find((g) => g.name === 'quiet_py')).toMatchObject({ enabled: false });
  });

  it('bad names and clashes get a clear error and write nothing', async () => {
    const h = home();
    const { client } = await apps.start(h);
    const refused = async (format: NewToolFormat, name: string, message: string | RegExp) => {
      const error = await client.createTool({ format, name }).then(
        () => null,
        (e: Error) => e,
      );
      expect(error, `${format} ${name}`).toMatchObject({ name: 'AuthoringError' });
      expect(error!.message).toMatch(message);
    };
    await refused('python', 'BadName', /"BadName" is not a valid python tool name: use snake_case/);
    await refused('python', 'class', /"class" is a Python keyword/);
    await refused('script-js', 'has-dash', /not a valid script-js tool name/);
    await refused('module-ts', '../escape', /not a valid module-ts tool name/);
    await refused('module-js', 'x'.repeat(65), /longer than 64 characters/);
    await refused('powershell', 'Format-Thing', /Format-\* are helpers/);
    await refused('module-ts', 'ReadVar', /built-in tool/);
    await expect(client.createTool({ format: 'cobol' as NewToolFormat, name: 'x' })).rejects.toThrow(/format/);
    await expect(client.createTool({ format: 'python', name: 'with_files', files: { 'with_files.py': 'x' } })).rejects.toThrow(/files can be given only for script and three-layer tools/);
    expect(existsSync(join(h, 'tools')) ? readdirSync(join(h, 'tools')) : []).toEqual([]);

    // One name, one entry per folder: a module beside a Python file of the same name would clash.
    await client.createTool({ format: 'python', name: 'twin' });
    await refused('module-ts', 'twin', /a tool named "twin" already exists/);
    await refused('three-layer', 'twin', /already exists/);
    // A dangling link is not a free name: writing there would follow it.
    symlinkSync(join(h, 'nowhere.ts'), join(h, 'tools', 'dangling.ts'));
    await refused('module-ts', 'dangling', /dangling\.ts already exists in this tools folder/);
    expect(existsSync(join(h, 'nowhere.ts'))).toBe(false);
    expect(readdirSync(join(h, 'tools')).sort()).toEqual(['dangling.ts', 'twin.py', 'twin.tool.json']);
  });
});
