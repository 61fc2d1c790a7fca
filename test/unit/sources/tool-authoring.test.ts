import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthoringError, createTool, deleteTool, readTool, updateTool } from '../../../electron/runtime/sources/authoring/tool-authoring.ts';
import { newToolNameProblem } from '../../../shared/new-tool-formats.ts';
import { ToolRegistry } from '../../../electron/runtime/sources/discovery/tool-registry.ts';
import { toolsByName } from '../../support/fixture-entries.ts';
import { makeTmpHome, testSourceContext, testToolContext } from '../../support/tool-source-context.ts';

describe('tool authoring', () => {
  it('creates a three-layer tool from the template, with overrides, and it loads and runs', async () => {
    const root = join(makeTmpHome(), 'tools');
    const created = await createTool(root, 'three-layer', 'shout', {
      'execution.py': "print('{text}'.upper() * {repeat})\n",
    });
    expect(created).toMatchObject({ format: 'three-layer', name: 'shout', dir: join(root, 'shout'), diagnostics: [] });
    expect(Object.keys(created.files).sort()).toEqual(['definition.json', 'execution.py', 'meta.json', 'return.json']);
    expect(JSON.parse(created.files['definition.json']!).id).toBe('shout');
    const registry = new ToolRegistry({ roots: [root], context: () => testSourceContext() });
    await registry.load();
    expect(await toolsByName(registry.groups()).get('shout')!.execute({ text: 'hi', repeat: 2 }, testToolContext())).toEqual({ status: 'SUCCESS', data: '[shout] HIHI\n' });
  });

  it('creates script tools in Python or JavaScript', async () => {
    const root = makeTmpHome();
    const py = await createTool(root, 'script-py', 'py_tool');
    expect(Object.keys(py.files).sort()).toEqual(['script.py', 'tool.json']);
    expect(JSON.parse(py.files['tool.json']!).name).toBe('py_tool');
    const js = await createTool(root, 'script-js', 'js_tool', { 'script.js': 'process.stdout.write("{}")' });
    expect(Object.keys(js.files).sort()).toEqual(['script.js', 'tool.json']);
    expect(js.files['script.js']).toBe('process.stdout.write("{}")');
    // script.js would silently win over script.py: a new Python script tool holds no script.js.
    await expect(createTool(root, 'script-py', 'mixed', { 'script.js': '' })).rejects.toThrow('"script.js" is not a script tool file; allowed: tool.json, script.py');
    expect(existsSync(join(root, 'mixed'))).toBe(false);
  });

  it('reports problems of what was written as diagnostics (the files are still written)', async () => {
    const root = makeTmpHome();
    const tool = await createTool(root, 'three-layer', 'braces', { 'execution.py': "d = {'a': 1}\nprint(d)\n" });
    expect(tool.diagnostics).toContainEqual(expect.objectContaining({ code: 'template-literal-brace', line: 1 }));
    const updated = await updateTool(root, tool.dir, { 'execution.py': "d = {{'a': 1}}\nprint(d)\n", 'definition.json': '{"id": "braces",}' });
    expect(updated.diagnostics).toEqual([expect.objectContaining({ code: 'invalid-json', file: join(tool.dir, 'definition.json') })]);
    expect(readFileSync(join(tool.dir, 'execution.py'), 'utf8')).toBe("d = {{'a': 1}}\nprint(d)\n");
  });

  it('validates names and file names and never writes outside the tool folder', async () => {
    const root = makeTmpHome();
    expect(newToolNameProblem('script-py', 'CamelCase')).toContain('snake_case');
    expect(newToolNameProblem('three-layer', 'ok-name_2')).toBeNull();
    for (const bad of ['../up', 'a/b', '.hidden', '', 'x'.repeat(65), '9lives']) {
      await expect(createTool(root, 'three-layer', bad)).rejects.toBeInstanceOf(AuthoringError);
    }
    await expect(createTool(root, 'three-layer', 'evil', { '../escape.py': 'x' })).rejects.toThrow('is not a three-layer tool file');
    await expect(createTool(root, 'script-py', 'evil2', { 'sub/tool.json': '{}' })).rejects.toThrow('is not a script tool file');
    const tool = await createTool(root, 'script-py', 'fine');
    await expect(updateTool(root, join(root, '..'), { 'tool.json': '{}' })).rejects.toThrow('not a tool folder directly inside');
    await expect(updateTool(root, tool.dir, { 'evil.sh': 'rm -rf /' })).rejects.toThrow('is not a script tool file');
    expect(readdirSync(root).sort()).toEqual(['fine']);
  });

  it('refuses to write through a symbolic link and to overwrite an existing tool', async () => {
    const root = makeTmpHome();
    const outside = join(makeTmpHome(), 'target.py');
    writeFileSync(outside, 'original');
    const tool = await createTool(root, 'script-py', 'linked');
    await expect(createTool(root, 'script-py', 'linked')).rejects.toThrow('already exists');
    const link = join(tool.dir, 'script.py');
    rmSync(link);
    symlinkSync(outside, link);
    await expect(updateTool(root, tool.dir, { 'script.py': 'print(1)' })).rejects.toThrow('symbolic link');
    expect(readFileSync(outside, 'utf8')).toBe('original');
  });

  it('reads and deletes a tool folder, refusing folders that are not tools', async () => {
    const root = makeTmpHome();
    const tool = await createTool(root, 'three-layer', 'gone');
    expect((await readTool(tool.dir)).files['definition.json']).toContain('"gone"');
    mkdirSync(join(root, 'not_a_tool'));
    await expect(deleteTool(root, join(root, 'not_a_tool'))).rejects.toThrow('is not a script or three-layer tool folder');
    await expect(deleteTool(root, root)).rejects.toThrow('not a tool folder directly inside');
    await deleteTool(root, tool.dir);
    expect(existsSync(tool.dir)).toBe(false);
    expect(existsSync(join(root, 'not_a_tool'))).toBe(true);
  });
});
