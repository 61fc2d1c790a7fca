// Edits a tool on disk while the registry watches its root: the new schema appears without a
// restart, one tools.changed event per burst, and an executor follows along.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../electron/runtime/sources/discovery/tool-registry.ts';
import type { ToolsChange } from '../../electron/runtime/tools/tools-change.ts';
import { syncExecutorGroups } from '../../electron/runtime/tools/executor-groups.ts';
import { ToolExecutor } from '../../electron/runtime/tools/tool-executor.ts';
import { toolsByName } from '../support/fixture-entries.ts';
import { makeTmpHome, testSourceContext } from '../support/tool-source-context.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function waitFor(registry: ToolRegistry, predicate: (e: ToolsChange) => boolean, ms = 5000): Promise<ToolsChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no tools.changed event in time')), ms);
    const dispose = registry.onChanged((event) => {
      if (!predicate(event)) return;
      clearTimeout(timer);
      dispose();
      resolve(event);
    });
  });
}

describe('hot reload', () => {
  it('sees an edited script tool’s new schema and a new module tool without restarting', async () => {
    const root = makeTmpHome();
    const folder = join(root, 'adder');
    mkdirSync(folder);
    const manifest = (properties: Record<string, unknown>) =>
      JSON.stringify({ name: 'adder', description: 'adds', always_allow: true, parameters: { type: 'object', properties } });
    writeFileSync(join(folder, 'tool.json'), manifest({ a: { type: 'number' } }));
    writeFileSync(join(folder, 'script.js'), 'const a = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(JSON.stringify({ sum: (a.a ?? 0) + (a.b ?? 0) }));\n');
    const registry = new ToolRegistry({ roots: [root], context: () => testSourceContext(), debounceMs: 50 });
    await registry.load();
    cleanups.push(registry.watch(), () => registry.close());
    const executor = new ToolExecutor({ sessionId: 's1' });
    for (const group of registry.groups()) executor.registerToolGroup(group);
    executor.toggleGroupEnabled('script', true);
    registry.onChanged((event) => syncExecutorGroups(executor, registry.groups(), event));

    const changed = waitFor(registry, (e) => e.updated.includes('script'));
    writeFileSync(join(folder, 'tool.json'), manifest({ a: { type: 'number' }, b: { type: 'number' } }));
    const event = await changed;
    expect(event.diagnostics).toEqual([]);
    expect(toolsByName(registry.groups()).get('script_adder')!.definition.function.parameters).toMatchObject({ properties: { b: { type: 'number' } } });
    executor.toggleGroupEnabled('script', true);
    expect(await executor.execute('script_adder', { a: 2, b: 3 })).toMatchObject({ status: 'SUCCESS', data: { sum: 5 } });

    const added = waitFor(registry, (e) => e.added.includes('fresh'));
    writeFileSync(join(root, 'fresh.ts'), 'export default () => ({ name: "fresh_tool", description: "new", execute: async () => ({ content: [{ type: "text", text: "fresh" }] }) });\n');
    await added;
    expect(toolsByName(registry.groups()).has('fresh_tool')).toBe(true);
  });

  it('turns a burst of edits into one event, re-parses only the touched tool, and lets a running call finish on its version', async () => {
    const root = makeTmpHome();
    const script = (name: string, body: string) => {
      mkdirSync(join(root, name), { recursive: true });
      writeFileSync(join(root, name, 'tool.json'), JSON.stringify({ name, description: name, always_allow: true, parameters: { type: 'object', properties: {} } }));
      writeFileSync(join(root, name, 'script.js'), body);
    };
    // Marks in the working folder that it started (node has read the old script), then takes a while.
    script('slow', 'require("fs").writeFileSync("started", ""); setTimeout(() => console.log("old"), 600);\n');
    script('steady', 'console.log("steady");\n');
    const workingDir = makeTmpHome();
    const registry = new ToolRegistry({ roots: [root], context: () => testSourceContext({ workingDir }), debounceMs: 50 });
    await registry.load();
    cleanups.push(registry.watch(), () => registry.close());
    const executor = new ToolExecutor({ sessionId: 's2' });
    for (const group of registry.groups()) executor.registerToolGroup(group);
    executor.toggleGroupEnabled('script', true);
    const events: ToolsChange[] = [];
    registry.onChanged((event) => {
      events.push(event);
      syncExecutorGroups(executor, registry.groups(), event);
      executor.toggleGroupEnabled('script', true);
    });
    const steadyBefore = toolsByName(registry.groups()).get('script_steady');

    const running = executor.execute('script_slow', {});
    while (!existsSync(join(workingDir, 'started'))) await new Promise((resolve) => setTimeout(resolve, 10));
    const changed = waitFor(registry, (e) => e.updated.includes('script'));
    // One save in an editor is often several writes: all of them make one event.
    writeFileSync(join(root, 'slow', 'script.js'), 'console.log("half-written");\n');
    writeFileSync(join(root, 'slow', 'tool.json'), JSON.stringify({ name: 'slow', description: 'now fast', always_allow: true, parameters: { type: 'object', properties: {} } }));
    writeFileSync(join(root, 'slow', 'script.js'), 'console.log("new");\n');
    writeFileSync(join(root, 'broken.ts'), 'export const nothing = 1;\n');
    const event = await changed;
    expect(event.diagnostics).toEqual([expect.objectContaining({ file: join(root, 'broken.ts'), message: 'Tool must export a default function' })]);
    expect(await running).toMatchObject({ status: 'SUCCESS', data: 'old' });
    expect(await executor.execute('script_slow', {})).toMatchObject({ status: 'SUCCESS', data: 'new' });
    await new Promise((resolve) => setTimeout(resolve, 300)); // late watch events would show up here
    expect(events).toHaveLength(1);
    expect(toolsByName(registry.groups()).get('script_slow')!.definition.function.description).toBe('now fast');
    expect(toolsByName(registry.groups()).get('script_steady')).toBe(steadyBefore); // untouched: not re-parsed
  });
});
