import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../../electron/runtime/sources/discovery/tool-registry.ts';
import type { ToolsChange } from '../../../electron/runtime/tools/tools-change.ts';
import { syncExecutorGroups } from '../../../electron/runtime/tools/executor-groups.ts';
import type { ToolGroup } from '../../../electron/runtime/tools/types.ts';
import { TOOL_FIXTURES, toolsByName } from '../../support/fixture-entries.ts';
import { makeTmpHome, testSourceContext, testToolContext } from '../../support/tool-source-context.ts';

function threeLayer(root: string, id: string, category: string, code = `print('${id}')`) {
  mkdirSync(join(root, id), { recursive: true });
  writeFileSync(join(root, id, 'definition.json'), JSON.stringify({ id, description: id, category }));
  writeFileSync(join(root, id, 'execution.py'), code);
}

describe('ToolRegistry', () => {
  it('loads, lists groups and diagnostics, and re-parses only the entries a change touched', async () => {
    const root = makeTmpHome();
    threeLayer(root, 'one', 'alpha');
    threeLayer(root, 'two', 'beta');
    const ctx = testSourceContext();
    const registry = new ToolRegistry({ roots: [root], context: () => ctx });
    await registry.load();
    expect(registry.groups().map((g) => g.name).sort()).toEqual(['alpha', 'beta']);
    const twoBefore = toolsByName(registry.groups()).get('two');
    const events: ToolsChange[] = [];
    registry.onChanged((e) => events.push(e));
    threeLayer(root, 'one', 'gamma');
    writeFileSync(join(root, 'broken.ts'), 'export const nothing = 1;\n');
    const event = await registry.reloadPaths([join(root, 'one', 'definition.json'), join(root, 'broken.ts')]);
    expect(event).toMatchObject({ added: ['gamma'], removed: ['alpha'], updated: [] });
    expect(events).toHaveLength(1);
    expect(events[0]!.diagnostics).toContainEqual(expect.objectContaining({ file: join(root, 'broken.ts'), message: 'Tool must export a default function' }));
    expect(toolsByName(registry.groups()).get('two')).toBe(twoBefore); // untouched: not re-parsed
    rmSync(join(root, 'two'), { recursive: true });
    expect(await registry.reloadPaths([join(root, 'two')])).toMatchObject({ removed: ['beta'] });
    expect(await registry.reloadPaths([join(root, 'nothing-here.txt')])).toBeNull();
  });

  it('reloads the modules of a root when a helper they import changes (not a tool itself)', async () => {
    const root = makeTmpHome();
    writeFileSync(join(root, '_shared.ts'), 'export const v = 1;\n');
    mkdirSync(join(root, 'lib'));
    writeFileSync(join(root, 'lib', 'util.ts'), 'export const w = 1;\n');
    writeFileSync(join(root, 'user.ts'), 'import { v } from "./_shared.ts";\nimport { w } from "./lib/util.ts";\nexport default () => ({ name: "user_vw", execute: async () => `${v}${w}` });\n');
    threeLayer(root, 'bystander', 'other');
    const registry = new ToolRegistry({ roots: [root], context: () => testSourceContext() });
    await registry.load();
    const run = () => toolsByName(registry.groups()).get('user_vw')!.execute({}, testToolContext());
    const bystander = toolsByName(registry.groups()).get('bystander');
    expect(await run()).toMatchObject({ data: '11' });
    writeFileSync(join(root, '_shared.ts'), 'export const v = 2;\n');
    expect(await registry.reloadPaths([join(root, '_shared.ts')])).toMatchObject({ updated: ['user'] });
    expect(await run()).toMatchObject({ data: '21' });
    writeFileSync(join(root, 'lib', 'util.ts'), 'export const w = 3;\n');
    await registry.reloadPaths([join(root, 'lib', 'util.ts')]);
    expect(await run()).toMatchObject({ data: '23' });
    expect(toolsByName(registry.groups()).get('bystander')).toBe(bystander); // not a module: untouched
    expect(await registry.reloadPaths([join(root, 'lib', 'notes.txt')])).toBeNull();
  });

  it('reports a FIFO that appears under a tool name instead of reading it (a .ps1 one would stall every reload)', async () => {
    const root = makeTmpHome();
    threeLayer(root, 'fine', 'custom');
    const registry = new ToolRegistry({ roots: [root], context: () => testSourceContext() });
    await registry.load();
    execFileSync('mkfifo', [join(root, 'piped.ps1'), join(root, 'piped.py')]);
    const started = Date.now();
    const event = await registry.reloadPaths([join(root, 'piped.ps1'), join(root, 'piped.py')]);
    expect(Date.now() - started).toBeLessThan(5000);
    for (const file of ['piped.ps1', 'piped.py']) {
      expect(event?.diagnostics).toContainEqual(expect.objectContaining({ file: join(root, file), code: 'unreadable', message: 'Cannot read: not a regular file' }));
    }
    expect(registry.groups().map((g) => g.name)).toEqual(['custom']);
    rmSync(join(root, 'piped.ps1'));
    expect((await registry.reloadPaths([join(root, 'piped.ps1')]))?.diagnostics.map((d) => d.file)).toEqual([join(root, 'piped.py')]);
  });

  it('keeps a call in flight on the version it started with', async () => {
    const root = makeTmpHome();
    threeLayer(root, 'slowpoke', 'custom', "import time\ntime.sleep(0.4)\nprint('old')");
    const registry = new ToolRegistry({ roots: [root], context: () => testSourceContext() });
    await registry.load();
    const old = toolsByName(registry.groups()).get('slowpoke')!;
    const running = old.execute({}, testToolContext());
    threeLayer(root, 'slowpoke', 'custom', "print('new')");
    await registry.reloadPaths([join(root, 'slowpoke')]);
    expect(await running).toEqual({ status: 'SUCCESS', data: 'old\n' });
    expect(await toolsByName(registry.groups()).get('slowpoke')!.execute({}, testToolContext())).toEqual({ status: 'SUCCESS', data: 'new\n' });
  });

  it('keeps the earlier root’s tool when a later root gains the same name, and takes over when it goes', async () => {
    const first = makeTmpHome();
    const second = makeTmpHome();
    cpSync(join(TOOL_FIXTURES, 'three-layer-seed', 'echo'), join(first, 'echo'), { recursive: true });
    const registry = new ToolRegistry({ roots: [first, second], context: () => testSourceContext() });
    await registry.load();
    cpSync(join(TOOL_FIXTURES, 'three-layer-seed', 'echo'), join(second, 'echo'), { recursive: true });
    await registry.reloadPaths([join(second, 'echo')]);
    expect(toolsByName(registry.groups()).get('echo')!.source!.root).toBe(first);
    expect(registry.diagnostics().filter((d) => d.code === 'name-conflict')).toHaveLength(1);
    rmSync(join(first, 'echo'), { recursive: true });
    await registry.reloadPaths([join(first, 'echo')]);
    expect(toolsByName(registry.groups()).get('echo')!.source!.root).toBe(second);
    expect(registry.diagnostics().filter((d) => d.code === 'name-conflict')).toHaveLength(0);
  });

  it('syncs an executor: removed and updated groups are unregistered, added and updated registered', () => {
    const calls: string[] = [];
    const executor = { registerToolGroup: (g: ToolGroup) => calls.push(`+${g.name}`), unregisterToolGroup: (n: string) => calls.push(`-${n}`) };
    const groups: ToolGroup[] = [{ name: 'a', tools: [] }, { name: 'c', tools: [] }];
    syncExecutorGroups(executor, groups, { added: ['a'], removed: ['b'], updated: ['c'] });
    expect(calls).toEqual(['-b', '-c', '+a', '+c']);
  });
});
