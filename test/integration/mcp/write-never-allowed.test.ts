// Issue #36 item 16: a write that can never be allowed says why and what to do instead of ending
// in a raw "read-only file system": server-memory told to keep its file directly in the home, and
// a server whose files live inside Tooldesk's own folder (an installed bundle) writing beside
// itself. And `allow-write` on a folder inside TOOLDESK_HOME is refused, not reported as done while
// the sandbox still binds it read-only. Real server-memory under bubblewrap; the real CLI.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { McpManager } from '../../../electron/runtime/sources/mcp/mcp-manager.ts';
import type { ToolContext } from '../../../electron/runtime/tools/types.ts';
import { testManager } from '../../support/mcp-servers.ts';
import { removeScratch, repoRoot, runCli, scratchInCheckout } from '../../support/run-cli.ts';
import { tempHomes } from '../../support/temp-homes.ts';

const modules = join(repoRoot, 'node_modules', '@modelcontextprotocol');
const homes = tempHomes();
let manager: McpManager | undefined;
const stray: string[] = [];
afterEach(async () => {
  await manager?.close();
  manager = undefined;
  for (const file of stray.splice(0)) rmSync(file, { force: true });
});
afterAll(() => {
  homes.removeAll();
  removeScratch();
});

const ctx = (): ToolContext => ({ callId: 'c', sessionId: 's', signal: new AbortController().signal, onUpdate: () => {} });
const entities = { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] };
const inside = (parent: string, child: string) => !relative(parent, child).startsWith('..');

/** server-memory copied into `parent` (as a bundle is unpacked into TOOLDESK_HOME), its dependencies linked. */
function memoryPackageIn(parent: string): string {
  const scope = join(parent, 'node_modules', '@modelcontextprotocol');
  mkdirSync(scope, { recursive: true });
  cpSync(join(modules, 'server-memory'), join(scope, 'server-memory'), { recursive: true });
  for (const entry of readdirSync(join(repoRoot, 'node_modules'))) {
    if (entry !== '@modelcontextprotocol' && entry !== '.bin') symlinkSync(join(repoRoot, 'node_modules', entry), join(parent, 'node_modules', entry));
  }
  for (const entry of readdirSync(modules)) if (!entry.startsWith('server-')) symlinkSync(join(modules, entry), join(scope, entry));
  return join(scope, 'server-memory', 'dist', 'index.js');
}

describe('writes that can never be allowed', () => {
  it('server-memory keeping its file directly in the home: why not, and what to do', async () => {
    // The sandbox keeps the home read-only; a file directly in it can only be allowed by opening
    // the whole home, which "allow writing" never offers. The home is one under /var/tmp (the
    // process's own may sit under /tmp, which the sandbox replaces with a private one).
    const home = homes.make();
    const file = join(home, 'memory.jsonl');
    manager = testManager({ workingDir: homes.make(), sandboxBase: { homeDir: home } });
    await manager.configure({ memory: { command: process.execPath, args: [join(modules, 'server-memory', 'dist', 'index.js')], env: { MEMORY_FILE_PATH: file } } }, { memory: true });
    await manager.startAll();
    expect(manager.states()[0]!.status).toBe('ready');
    const refused = await manager.connection('memory')!.callTool('create_entities', entities, ctx());
    expect(refused.status).toBe('ERROR');
    expect(refused.error).toMatch(/EROFS|read-only/i);
    // server-memory writes through a temporary file beside the one it names.
    expect(refused.error).toContain(`The sandbox kept "memory" from writing ${file}`);
    expect(refused.error).toContain(', and that cannot be allowed: it is your home folder itself');
    expect(refused.error).toContain('Give the server a file or folder of its own to write to');
    expect(refused.error).not.toContain('Allow writing to');
    expect(manager.states()[0]!.writeRefusal).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  }, 60_000);

  it("a server installed inside Tooldesk's own folder writing beside itself: why not, and what to do", async () => {
    const appHome = scratchInCheckout('td-app-home-');
    const server = memoryPackageIn(join(appHome, 'bundles', 'memory'));
    manager = testManager({ workingDir: homes.make(), isProtected: (path) => inside(appHome, path) });
    await manager.configure({ memory: { command: process.execPath, args: [server] } }, { memory: true });
    await manager.startAll();
    const refused = await manager.connection('memory')!.callTool('create_entities', entities, ctx());
    expect(refused.status).toBe('ERROR');
    expect(refused.error).toContain(`${dirname(server)} is inside Tooldesk's own folder (TOOLDESK_HOME) or a tool folder, which every tool and server sees read-only`);
    expect(refused.error).toContain('tooldesk mcp allow-write memory FOLDER');
    expect(manager.states()[0]!.writeRefusal).toBeUndefined();
  }, 60_000);

  it('mcp allow-write refuses a folder inside TOOLDESK_HOME, a credential folder and the home, and changes nothing', async () => {
    const home = homes.make();
    const appHome = join(home, '.tooldesk');
    mkdirSync(join(appHome, 'data'), { recursive: true });
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(appHome, 'settings.json'), JSON.stringify({ mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } } }));
    const cli = (args: string[]) => runCli(appHome, args, '', { HOME: home });
    const servers = () => JSON.parse(readFileSync(join(appHome, 'settings.json'), 'utf8')).mcpServers;
    const before = servers();

    const own = await cli(['mcp', 'allow-write', 'memory', join(appHome, 'data')]);
    expect(own.code).toBe(1);
    expect(own.stderr).toContain(`writing to ${join(appHome, 'data')} cannot be allowed: ${join(appHome, 'data')} is inside Tooldesk's own folder (TOOLDESK_HOME)`);
    const ssh = await cli(['mcp', 'allow-write', 'memory', join(home, '.ssh')]);
    expect(ssh.code).toBe(1);
    expect(ssh.stderr).toContain('is inside ~/.ssh, a credential folder no tool or server may write');
    expect(servers()).toEqual(before);

    mkdirSync(join(home, 'memory-data'));
    const fine = await cli(['mcp', 'allow-write', 'memory', join(home, 'memory-data')]);
    expect(fine.code, fine.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(appHome, 'settings.json'), 'utf8')).mcpServers.memory.writable).toContain(join(home, 'memory-data'));
  }, 60_000);
});
