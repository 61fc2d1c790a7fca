// Issue #22, "working as added": the reference servers from the npm registry, configured the way
// their READMEs say, under the default sandbox. Roots are what the user gave (the folders in the
// arguments, never the working folder), folders named in the arguments are writable, and a write
// the sandbox refused becomes "Allow writing to FOLDER", after which the same call works.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, cpSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { McpManager } from '../../../electron/runtime/sources/mcp/mcp-manager.ts';
import { entryAllowingWrite } from '../../../electron/runtime/sources/mcp/config/allow-write.ts';
import { ToolExecutor } from '../../../electron/runtime/tools/tool-executor.ts';
import { EVERYTHING, testManager } from '../../support/mcp-servers.ts';
import { removeScratch, repoRoot, scratchInCheckout } from '../../support/run-cli.ts';
import { tempHomes } from '../../support/temp-homes.ts';

const modules = join(repoRoot, 'node_modules', '@modelcontextprotocol');
const FILESYSTEM = join(modules, 'server-filesystem', 'dist', 'index.js');
const THINKING = join(modules, 'server-sequential-thinking', 'dist', 'index.js');
const APP_SERVER = join(modules, 'server-basic-vanillajs', 'dist', 'index.js');

const homes = tempHomes();
let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.close();
  manager = undefined;
});
afterAll(() => {
  homes.removeAll();
  removeScratch();
});

async function executorFor(m: McpManager): Promise<ToolExecutor> {
  const executor = new ToolExecutor({ sessionId: 'as-added', approve: async () => ({ decision: 'once' }) });
  for (const group of m.groups()) executor.registerToolGroup(group);
  for (const group of m.groups()) executor.toggleGroupEnabled(group.name, true);
  return executor;
}

/** server-memory copied out of node_modules (it writes beside its own package), its dependencies linked. */
function memoryPackage(): string {
  const root = scratchInCheckout('td-memory-pkg-');
  const scope = join(root, 'node_modules', '@modelcontextprotocol');
  mkdirSync(scope, { recursive: true });
  cpSync(join(modules, 'server-memory'), join(scope, 'server-memory'), { recursive: true });
  for (const entry of readdirSync(join(repoRoot, 'node_modules'))) {
    if (entry !== '@modelcontextprotocol' && entry !== '.bin') symlinkSync(join(repoRoot, 'node_modules', entry), join(root, 'node_modules', entry));
  }
  for (const entry of readdirSync(modules)) if (!entry.startsWith('server-')) symlinkSync(join(modules, entry), join(scope, entry));
  return join(scope, 'server-memory', 'dist', 'index.js');
}

describe('reference servers, as added', () => {
  it('server-filesystem: the folder in its arguments is its root and writable; outside it and the working folder are denied', async () => {
    const home = homes.make();
    const docs = join(home, 'Documents');
    mkdirSync(docs);
    writeFileSync(join(docs, 'note.txt'), 'hello from Documents');
    writeFileSync(join(home, 'outside.txt'), 'not for the server');
    manager = testManager({ workingDir: home });
    await manager.configure({ files: { command: process.execPath, args: [FILESYSTEM, docs] } }, { files: true });
    await manager.startAll();
    const state = manager.states()[0]!;
    expect(state, state.detail).toMatchObject({ status: 'ready', sandboxed: true });
    expect(state.detail).toContain(`writes to ${docs}`);
    const executor = await executorFor(manager);

    const allowed = await executor.execute('files__list_allowed_directories', {});
    expect(allowed.finalText).toContain(docs);
    expect(allowed.finalText).not.toContain(`${home}\n`);
    expect((await executor.execute('files__read_text_file', { path: join(docs, 'note.txt') })).finalText).toContain('hello from Documents');
    const wrote = await executor.execute('files__write_file', { path: join(docs, 'new.txt'), content: 'written by the server' });
    expect(wrote.status, wrote.finalText).toBe('SUCCESS');
    expect(readFileSync(join(docs, 'new.txt'), 'utf8')).toBe('written by the server');
    const outside = await executor.execute('files__read_text_file', { path: join(home, 'outside.txt') });
    expect(outside.status).toBe('ERROR');
    expect(outside.finalText).toMatch(/denied|outside allowed/i);
    const listHome = await executor.execute('files__list_directory', { path: home });
    expect(listHome.status).toBe('ERROR');
    expect(listHome.finalText).not.toContain('outside.txt');
  }, 60_000);

  it('writeArgFolders: false keeps the folder read-only, and the refused write offers "Allow writing"', async () => {
    const home = homes.make();
    const docs = join(home, 'Documents');
    mkdirSync(docs);
    manager = testManager({ workingDir: home });
    await manager.configure({ files: { command: process.execPath, args: [FILESYSTEM, docs], writeArgFolders: false } }, { files: true });
    await manager.startAll();
    const executor = await executorFor(manager);
    const refused = await executor.execute('files__write_file', { path: join(docs, 'new.txt'), content: 'x' });
    expect(refused.status).toBe('ERROR');
    expect(refused.finalText).toContain(`Allow writing to ${docs} for this server: \`tooldesk mcp allow-write files ${docs}\``);
    expect(manager.states()[0]!.writeRefusal).toEqual({ path: join(docs, 'new.txt'), folder: docs });
    expect(existsSync(join(docs, 'new.txt'))).toBe(false);
  }, 60_000);

  it('server-memory started as node …/dist/index.js: EROFS beside its package, then one "allow writing" and it works', async () => {
    const server = memoryPackage();
    const dist = dirname(server);
    manager = testManager({ workingDir: homes.make() });
    const entry = { command: process.execPath, args: [server] };
    await manager.configure({ memory: entry }, { memory: true });
    await manager.startAll();
    expect(manager.states()[0]!.status).toBe('ready');
    let executor = await executorFor(manager);
    const entities = { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] };
    const refused = await executor.execute('memory__create_entities', entities);
    expect(refused.status).toBe('ERROR');
    expect(refused.finalText).toMatch(/EROFS|read-only/i);
    expect(refused.finalText).toContain(`Allow writing to ${dist} for this server: \`tooldesk mcp allow-write memory ${dist}\``);

    const allowed = entryAllowingWrite(entry, manager.states()[0]!.writeRefusal!.folder);
    if ('error' in allowed) throw new Error(allowed.error);
    await manager.configure({ memory: allowed.entry }, { memory: true });
    await manager.startAll();
    executor = await executorFor(manager);
    const created = await executor.execute('memory__create_entities', entities);
    expect(created.status, created.finalText).toBe('SUCCESS');
    expect(readFileSync(join(dist, 'memory.jsonl'), 'utf8')).toContain('Ada');
    expect((await executor.execute('memory__read_graph', {})).finalText).toContain('wrote the first program');
  }, 60_000);

  it('server-sequential-thinking runs as added', async () => {
    manager = testManager({ workingDir: homes.make() });
    await manager.configure({ think: { command: process.execPath, args: [THINKING] } }, { think: true });
    await manager.startAll();
    const executor = await executorFor(manager);
    const step = await executor.execute('think__sequentialthinking', { thought: 'First, list the facts.', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true });
    expect(step.status, step.finalText).toBe('SUCCESS');
    expect(step.finalText).toContain('"thoughtNumber": 1');
  }, 60_000);

  it('a server built on the v2 SDK: its 2020-12 inputSchema is validated, not skipped with a warning', async () => {
    manager = testManager({ workingDir: homes.make() });
    await manager.configure({ app: { command: process.execPath, args: [APP_SERVER, '--stdio'] } }, { app: true });
    await manager.startAll();
    const tool = manager.connection('app')!.tools().find((t) => t.name === 'get-time')!;
    expect(tool.inputSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const executor = await executorFor(manager);
    const result = await executor.execute('app__get-time', {});
    expect(result.status, result.finalText).toBe('SUCCESS');
    expect(result.warnings ?? []).toEqual([]);
    expect(executor.checkArgs('app__get-time', {})).toMatchObject({ ok: true });
  }, 60_000);

  it('server-everything: no folders given → the roots capability is not declared; a roots setting → exactly those', async () => {
    const home = homes.make();
    manager = testManager({ workingDir: home });
    await manager.configure({ ev: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }, { ev: true });
    await manager.startAll();
    expect(manager.connection('ev')!.tools().map((t) => t.name)).not.toContain('get-roots-list');
    await manager.close();

    const project = join(home, 'project');
    mkdirSync(project);
    manager = testManager({ workingDir: home });
    await manager.configure({ ev: { command: process.execPath, args: [EVERYTHING, 'stdio'], roots: [project] } }, { ev: true });
    await manager.startAll();
    const executor = await executorFor(manager);
    const roots = await executor.execute('ev__get-roots-list', {});
    expect(roots.status, roots.finalText).toBe('SUCCESS');
    expect(roots.finalText).toContain(`file://${project}`);
    expect(roots.finalText).not.toContain(`file://${home}\n`);
  }, 60_000);
});
