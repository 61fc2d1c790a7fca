import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunner } from '../../../electron/runtime/runner/create-runner.ts';
import { mapSecretResolver } from '../../../electron/runtime/runner/secret-resolver.ts';
import { loadThreeLayerTools } from '../../../electron/runtime/sources/three-layer/index.ts';
import { fixtureEntries, TOOL_FIXTURES, toolsByName } from '../../support/fixture-entries.ts';
import { makeTmpHome, testSourceContext, testToolContext } from '../../support/tool-source-context.ts';

async function load(caseName: string, ctx = testSourceContext()) {
  const result = await loadThreeLayerTools(fixtureEntries(caseName), ctx);
  return { ...result, tools: toolsByName(result.groups), ctx };
}

const run = async (tools: Awaited<ReturnType<typeof load>>['tools'], name: string, args: Record<string, unknown>) =>
  tools.get(name)!.execute(args, testToolContext());

describe('three-layer tools (seed 004)', () => {
  it("loads the seed's examples unchanged into their category group with meta and icon", async () => {
    const { groups, tools, diagnostics } = await load('three-layer-seed');
    expect(diagnostics).toEqual([]);
    expect(groups.map((g) => g.name)).toEqual(['custom']);
    expect([...tools.keys()].sort()).toEqual(['calc', 'echo', 'greet', 'text_len']);
    const calc = tools.get('calc')!;
    expect(calc.timeoutMs).toBe(15_000);
    expect(tools.get('greet')!.timeoutMs).toBe(30_000);
    expect(calc.meta).toMatchObject({ notes: '这是一个示例工具,用于演示参数与模板写法', icon: 'calculator.svg', owner: 'admin', created_at: '2026-01-05', category: 'custom' });
    expect(tools.get('echo')!.meta).toMatchObject({ category: 'custom' });
    expect(calc.source).toMatchObject({ format: 'three-layer', file: join(TOOL_FIXTURES, 'three-layer-seed/calc/definition.json') });
  });

  it('runs calc, echo, greet and text_len as the seed describes', async () => {
    const { tools } = await load('three-layer-seed');
    expect(await run(tools, 'calc', { a: 6, op: '*', b: 7 })).toEqual({ status: 'SUCCESS', data: '[calc] 结果: 42\n' });
    expect(await run(tools, 'calc', { a: 1, op: '/', b: 4 })).toEqual({ status: 'SUCCESS', data: '[calc] 结果: 0.25\n' });
    expect(await run(tools, 'echo', { text: 'hello' })).toEqual({ status: 'SUCCESS', data: 'hello\n' });
    expect(await run(tools, 'greet', {})).toEqual({ status: 'SUCCESS', data: '你好!\n' });
    expect(await run(tools, 'greet', { name: '小明' })).toEqual({ status: 'SUCCESS', data: '你好,小明!\n' });
    // str.format fills the f-string's {name} too (before Python runs), so padding survives there.
    expect(await run(tools, 'greet', { name: ' 小明 ' })).toEqual({ status: 'SUCCESS', data: '你好, 小明 !\n' });
    expect(await run(tools, 'text_len', { text: '你好世界' })).toEqual({ status: 'SUCCESS', data: '[text_len] 字符数: 4\n' });
  });

  it("loads a definition.json saved by Astrion's API (unset fields are null) like Astrion does", async () => {
    const { tools, diagnostics } = await load('three-layer-api-nulls');
    expect(diagnostics).toEqual([]);
    const tool = tools.get('saved_by_api')!;
    expect(tool.definition.function).toEqual({ name: 'saved_by_api', description: '自定义工具 saved_by_api', parameters: { type: 'object', properties: {} } });
    expect(tool.timeoutMs).toBe(30_000);
    expect(tool.meta).toMatchObject({ category: 'custom' });
    expect(tool.meta).not.toHaveProperty('icon');
    expect(await run(tools, 'saved_by_api', {})).toEqual({ status: 'SUCCESS', data: '[saved_by_api] saved\n' });
  });

  it('resolves {names[0]} and {point[x]} as str.format does, safely quoted, with the errors Astrion gives', async () => {
    const { tools, diagnostics } = await load('three-layer-field-access');
    expect(diagnostics).toEqual([]);
    expect(await run(tools, 'pick', { names: ["it's", 'b'], point: { x: 41 } })).toEqual({ status: 'SUCCESS', data: `it's 42 ["it's", 'b']\n` });
    expect(await run(tools, 'pick', { names: [], point: { x: 1 } })).toMatchObject({ status: 'ERROR', error: expect.stringContaining('list index out of range') });
    expect(await run(tools, 'pick', { names: ['a'], point: {} })).toMatchObject({ status: 'ERROR', error: expect.stringContaining('缺少必填参数: "x"') });
  });

  it("answers a missing required argument with the seed's error and an English line", async () => {
    const { tools } = await load('three-layer-seed');
    expect(await run(tools, 'echo', {})).toEqual({ status: 'ERROR', error: '缺少必填参数: text\nMissing required parameter: text' });
  });

  it('merges a top-level required into parameters.required and fills absent optionals from their default', async () => {
    const { tools } = await load('three-layer-runtime');
    const tool = tools.get('merged_required')!;
    expect(tool.definition.function.parameters.required).toEqual(['x']);
    expect(await tool.execute({ x: 'given' }, testToolContext())).toEqual({ status: 'SUCCESS', data: 'given dflt\n' });
  });

  it('reports an unescaped dict literal at load time with its line and the {{ }} fix', async () => {
    const { tools, diagnostics } = await load('three-layer-literal-brace');
    const diagnostic = diagnostics.find((d) => d.code === 'template-literal-brace')!;
    expect(diagnostic).toMatchObject({ severity: 'error', file: join(TOOL_FIXTURES, 'three-layer-literal-brace/calc_broken/execution.py'), line: 5, column: 7 });
    expect(diagnostic.hint).toContain("{{'+': operator.add}}");
    const result = await run(tools, 'calc_broken', { a: 1, op: '+', b: 2 });
    expect(result.status).toBe('ERROR');
    expect(result.error).toContain('缺少必填参数: "\'+\'"');
    expect(result.error).toContain('line 5');
  });

  it('falls back to the default message when the return template is invalid, with a diagnostic', async () => {
    const { tools, diagnostics } = await load('three-layer-bad-return');
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'invalid-return-template', file: join(TOOL_FIXTURES, 'three-layer-bad-return/bad_template/return.json') })]);
    expect(diagnostics[0]!.message).toContain('{result}');
    expect(await run(tools, 'bad_template', {})).toEqual({ status: 'SUCCESS', data: 'hello\n' });
  });

  it('validates definition.json: JSON syntax, id pattern, id vs folder, schema type', async () => {
    const { tools, diagnostics } = await load('three-layer-broken-definition');
    const file = (folder: string) => join(TOOL_FIXTURES, 'three-layer-broken-definition', folder, 'definition.json');
    expect(diagnostics).toContainEqual(expect.objectContaining({ file: file('bad_json'), code: 'invalid-json', line: 4 }));
    expect(diagnostics).toContainEqual(expect.objectContaining({ file: file('bad_id'), code: 'invalid-id' }));
    expect(diagnostics).toContainEqual(expect.objectContaining({ file: file('folder_differs'), code: 'id-folder-mismatch' }));
    expect(diagnostics).toContainEqual(expect.objectContaining({ file: file('bad_schema'), code: 'invalid-schema' }));
    expect([...tools.keys()].sort()).toEqual(['bad_schema', 'other_name']);
  });

  it('puts stdout and stderr together, applies return.json on a failure, and stops at the timeout', async () => {
    const { tools } = await load('three-layer-runtime');
    const raised = await run(tools, 'raises', {});
    expect(raised.status).toBe('ERROR');
    expect(raised.error).toMatch(/^\[raises\] rc=1 before\nTraceback/);
    expect(raised.error).toContain('File "execution.py", line 2');
    expect(raised.error).toContain('ValueError: op must be one of + - * /');
    const started = Date.now();
    const looped = await run(tools, 'loop_forever', {});
    expect(looped).toMatchObject({ status: 'ERROR' });
    expect(looped.error).toBe(`timeout: execution.py timed out after 1 s and was stopped — raise the tool's timeout in ${join(TOOL_FIXTURES, 'three-layer-runtime/loop_forever/definition.json')} ("timeout": seconds, at most 600)`);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives declared secrets to execution.py as env vars, redacted from the output, and rejects a bad declaration', async () => {
    const root = makeTmpHome();
    const tool = (id: string, secrets: unknown) => {
      mkdirSync(join(root, id));
      writeFileSync(join(root, id, 'definition.json'), JSON.stringify({ id, description: id, secrets }));
      writeFileSync(join(root, id, 'execution.py'), "import os\nkey = os.environ.get('API_KEY', '')\nprint(len(key), key)\n");
    };
    tool('keyed', ['API_KEY']);
    tool('bad_secrets', ['API_KEY', 7]);
    const SECRET = 'sk-three-layer-5e61';
    const ctx = testSourceContext({ runner: createRunner({ resolveSecrets: mapSecretResolver({ API_KEY: SECRET }) }) });
    const { groups, diagnostics } = await loadThreeLayerTools(fixtureEntries('', root), ctx);
    const tools = toolsByName(groups);
    expect(tools.get('keyed')!.secrets).toEqual(['API_KEY']);
    const result = await tools.get('keyed')!.execute({}, testToolContext());
    expect(result).toMatchObject({ status: 'SUCCESS', data: `${SECRET.length} [secret:API_KEY]\n` });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(diagnostics).toContainEqual(expect.objectContaining({ severity: 'error', file: join(root, 'bad_secrets', 'definition.json'), message: '"secrets" must be an array of key names', hint: expect.stringContaining('"secrets": [') }));
  });

  it('caps output at 10 000 characters', async () => {
    const { tools } = await load('three-layer-runtime');
    const result = await run(tools, 'huge_output', {});
    expect(result.status).toBe('SUCCESS');
    expect((result.data as string).startsWith('A'.repeat(10_000) + '\n…[output cut at 10000 characters]')).toBe(true);
    expect(result.warnings).toEqual(['output exceeded 10000 characters and was cut']);
  });
});

const PAYLOADS = [
  "it's",
  'say "hi"',
  "'''",
  '"""',
  'back\\slash\\',
  'ends with a backslash \\',
  'line one\nline two\r\nthree',
  "'; __import__('os').system('touch PWNED'); '",
  '"); __import__("os").system("touch PWNED"); ("',
  "''' + __import__('os').system('touch PWNED') + '''",
  '{text} {{braces}} {0} {__import__}',
  "}{__import__('os').system('touch PWNED')}{",
  '\\N{BULLET} \\x41 \\u0041',
  '\u0000 nul and \u001b escape',
  'emoji 😀 and 中文',
  '# not a comment\nimport os; os.system("touch PWNED")',
];

describe('three-layer substitution is injection-proof', () => {
  it.each(PAYLOADS)('passes %j through every quoting context as data', async (payload) => {
    const ctx = testSourceContext();
    const { tools } = await load('three-layer-injection', ctx);
    const result = await tools.get('quote_contexts')!.execute({ text: payload }, testToolContext());
    expect(result.status, result.error).toBe('SUCCESS');
    const seen = JSON.parse(result.data as string) as string[];
    expect(seen).toEqual(Array(11).fill(payload));
    expect(existsSync(join(ctx.workingDir, 'PWNED'))).toBe(false);
  });

  it('gives bare placeholders Python literals, also inside f-string expressions', async () => {
    const ctx = testSourceContext();
    const { tools } = await load('three-layer-injection', ctx);
    const text = `a"b'c\\d{e}\n`;
    const result = await tools.get('f_expression')!.execute({ text, items: ['x', "y'", 'z"'], count: 3 }, testToolContext());
    expect(result.status, result.error).toBe('SUCCESS');
    expect(JSON.parse(result.data as string)).toEqual({ length: text.length, joined: `x|y'|z"`, flag: true, count: 3, nothing: null, quoted_nothing: '' });
  });
});
