import { describe, expect, it, vi } from 'vitest';
import { currentCallTrace } from '../../../electron/runtime/tools/call-trace.ts';
import { ToolExecutor } from '../../../electron/runtime/tools/tool-executor.ts';
import type { Tool } from '../../../electron/runtime/tools/types.ts';
import { makeGroup, makeTool } from './make-tool.ts';

function executorWith(tools: Tool[], options: Partial<ConstructorParameters<typeof ToolExecutor>[0]> = {}) {
  const executor = new ToolExecutor({ sessionId: 's1', ...options });
  executor.registerToolGroup(makeGroup('g', tools));
  executor.toggleGroupEnabled('g', true);
  return executor;
}

const echoSchema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false };

describe('ToolExecutor registration and definitions', () => {
  it('starts with the vars group registered and disabled, and offers nothing', () => {
    const executor = new ToolExecutor({ sessionId: 's' });
    expect(executor.listGroups().map((g) => [g.name, g.enabled, g.builtin])).toEqual([['vars', false, true]]);
    expect(executor.getEnabledToolDefinitions()).toEqual([]);
  });

  it('offers ReadVar/ListVars whenever any group is enabled, WriteVar/RemoveVars only with vars', () => {
    const executor = new ToolExecutor({ sessionId: 's' });
    executor.registerToolGroup(makeGroup('g', [makeTool('a')]));
    expect(executor.isGroupEnabled('g')).toBe(false);
    expect(executor.isToolEnabled('a')).toBe(true);
    executor.toggleGroupEnabled('g', true);
    expect(executor.getEnabledToolDefinitions().map((d) => d.function.name).sort()).toEqual(['ListVars', 'ReadVar', 'a']);
    executor.toggleGroupEnabled('vars', true);
    expect(executor.getEnabledToolDefinitions().map((d) => d.function.name)).toContain('WriteVar');
  });

  it('never leaks extra fields into definitions', () => {
    const tool = makeTool('a', undefined, { parameters: echoSchema });
    (tool.definition as unknown as Record<string, unknown>).extra = 1;
    (tool.definition.function as unknown as Record<string, unknown>).strict = true;
    (tool.definition.function as unknown as Record<string, unknown>).permission = 'x';
    const noDesc = makeTool('b');
    delete noDesc.definition.function.description;
    const executor = executorWith([tool, noDesc]);
    const defs = executor.getEnabledToolDefinitions().filter((d) => ['a', 'b'].includes(d.function.name));
    expect(defs[0]).toEqual({ type: 'function', function: { name: 'a', description: 'The a tool', parameters: echoSchema } });
    expect(Object.keys(defs[1]!.function)).toEqual(['name', 'parameters']);
    for (const def of executor.getEnabledToolDefinitions()) {
      expect(Object.keys(def)).toEqual(['type', 'function']);
      expect(def.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    }
  });

  it('gives definitions an object schema even when the tool left out `type` or parameters', () => {
    const loose = makeTool('loose', undefined, { parameters: { properties: { q: { type: 'string' } } } });
    const none = makeTool('none');
    delete (none.definition.function as { parameters?: unknown }).parameters;
    const defs = executorWith([loose, none]).getEnabledToolDefinitions();
    expect(defs.find((d) => d.function.name === 'loose')!.function.parameters).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
    expect(defs.find((d) => d.function.name === 'none')!.function.parameters).toEqual({ type: 'object', properties: {} });
  });

  it('exposes an invalid name under a stable alias and runs the real tool through it', async () => {
    const run = vi.fn(async () => ({ data: 'ran' }));
    const executor = executorWith([makeTool('files.read v2', run)]);
    const alias = executor.getEnabledToolDefinitions().find((d) => d.function.name.startsWith('files_read_v2_'))!.function.name;
    expect(alias).toMatch(/^files_read_v2_[0-9a-f]{6}$/);
    const result = await executor.execute(alias, {}, { callId: 'c1' });
    expect(result).toMatchObject({ status: 'SUCCESS', toolName: 'files.read v2', finalText: 'ran', cacheVarResult: `${alias}_c1_result` });
    expect((await executor.execute('files.read v2', {})).status).toBe('SUCCESS');
    expect(run).toHaveBeenCalledTimes(2);
    expect(executor.getTool(alias)).toBe(executor.getTool('files.read v2'));
    const info = executor.listGroups().find((g) => g.name === 'g')!.tools[0]!;
    expect(info).toMatchObject({ name: 'files.read v2', modelName: alias, format: 'builtin', enabled: true });
  });

  it('records a name clash instead of overwriting', async () => {
    const executor = executorWith([makeTool('a', async () => ({ data: 'first' }))]);
    const result = executor.registerTool(makeTool('a', async () => ({ data: 'second' })), 'other');
    expect(result).toEqual({ ok: false, error: expect.stringContaining('already taken') });
    expect(executor.diagnostics()).toHaveLength(1);
    expect((await executor.execute('a', {})).finalText).toBe('first');
    expect(executor.registerTool(makeTool('ReadVar')).ok).toBe(false);
  });

  it('registers skill rules as RULE variables and removes them with the group', () => {
    const executor = new ToolExecutor({ sessionId: 's' });
    executor.registerToolGroup(
      makeGroup('web', [makeTool('fetch')], {
        rulePrompt: (names) => `Use ${names.join(', ')} carefully.`,
        declareSkillRules: {
          cite: { desc: 'Citing', prompt: 'Always cite.', alwaysLoad: true },
          crawl: { desc: 'Crawling', prompt: 'Be polite.' },
        },
      }),
    );
    expect(executor.variables.peek('Rule/web/crawl')).toMatchObject({ type: 'RULE', value: 'Be polite.', desc: 'Crawling' });
    expect(executor.toolRules()).not.toContain('Use fetch');
    executor.toggleGroupEnabled('web', true);
    const rules = executor.toolRules();
    expect(rules).toContain('Never invent');
    expect(rules).toContain('## Tool group: web\nUse fetch carefully.');
    expect(rules).toContain('Always cite.');
    expect(rules).toContain('ReadVar {"name": "Rule/web/crawl"}');
    expect(executor.unregisterToolGroup('web')).toBe(true);
    expect(executor.variables.has('Rule/web/crawl')).toBe(false);
    expect(executor.getTool('fetch')).toBeUndefined();
    expect(executor.unregisterToolGroup('vars')).toBe(false);
    expect(executor.unregisterToolGroup('nope')).toBe(false);
  });

  it('puts rules back when a restored session did not have them', () => {
    const executor = new ToolExecutor({ sessionId: 's' });
    executor.registerToolGroup(makeGroup('web', [], { declareSkillRules: { r: { desc: 'd', prompt: 'p' } } }));
    executor.variables.restore({ version: 1, variables: [{ name: 'old', value: 'v', type: 'LLMAdd', tags: [], size: 1, createdAt: 1, updatedAt: 1, accessedAt: 1 }] });
    expect(executor.variables.has('old')).toBe(true);
    expect(executor.variables.peek('Rule/web/r')?.value).toBe('p');
  });

  it('lists groups with effective permissions', () => {
    const executor = new ToolExecutor({ sessionId: 's', permissions: { get: (n) => (n === 'b' ? { executionPolicy: 'ask-always' } : undefined), set: () => {} } });
    executor.registerToolGroup(makeGroup('g', [makeTool('a', undefined, { permission: undefined }), makeTool('b')], { defaultPermission: { resultApprovalPolicy: 'on-error' } }));
    const [vars, g] = executor.listGroups();
    expect(vars!.tools.find((t) => t.name === 'ReadVar')!.permission).toEqual({ executionPolicy: 'auto', resultApprovalPolicy: 'never' });
    expect(g!.tools.map((t) => t.permission)).toEqual([
      { executionPolicy: 'ask-once', resultApprovalPolicy: 'on-error' },
      { executionPolicy: 'ask-always', resultApprovalPolicy: 'on-error' },
    ]);
  });
});

describe('ToolExecutor.execute', () => {
  it('answers NOT_FOUND with close names', async () => {
    const executor = executorWith([makeTool('read_file')]);
    const result = await executor.execute('read_fiel', {});
    expect(result.status).toBe('NOT_FOUND');
    expect(result.finalText).toContain('Close names: read_file');
  });

  it('refuses a tool of a disabled group, and a disabled tool, without running it', async () => {
    const run = vi.fn(async () => ({ data: 'x' }));
    const executor = executorWith([makeTool('a', run)]);
    executor.toggleGroupEnabled('g', false);
    const refused = await executor.execute('a', {});
    expect(refused.status).toBe('ERROR');
    expect(refused.finalText).toContain('group "g" is disabled');
    expect((await executor.execute('ReadVar', { name: 'x' })).finalText).toContain('group "vars" is disabled');
    executor.toggleGroupEnabled('g', true);
    executor.setToolEnabled('a', false);
    expect((await executor.execute('a', {})).finalText).toContain('disabled by the user');
    expect(run).not.toHaveBeenCalled();
  });

  it('resolves $VAR_REF in nested arguments before validation and the run', async () => {
    const seen: unknown[] = [];
    const executor = executorWith([makeTool('a', async (args) => (seen.push(args), { data: 'ok' }), { parameters: { type: 'object', properties: { q: { type: 'object' } } } })]);
    executor.variables.add('v', 'hello', 'USER_ADD');
    await executor.execute('a', { q: { list: ['$VAR_REF{{v}}', '$VAR_REF{{v:1:3}}'] } });
    expect(seen).toEqual([{ q: { list: ['hello', 'ell'] } }]);
    const bad = await executor.execute('a', { q: { x: '$VAR_REF{{nope}}' } });
    expect(bad).toMatchObject({ status: 'ERROR', finalText: expect.stringContaining('Unknown variable "nope"') });
    expect(seen).toHaveLength(1);
  });

  it('validates arguments with ajv and explains the errors to the model', async () => {
    const run = vi.fn(async () => ({ data: 'x' }));
    const executor = executorWith([makeTool('echo', run, { parameters: echoSchema })]);
    const result = await executor.execute('echo', { text: 42, extra: true });
    expect(result.status).toBe('ERROR');
    expect(result.finalText).toContain('`text`: expected string, got integer 42');
    expect(result.finalText).toContain('unexpected field `extra`');
    expect(run).not.toHaveBeenCalled();
  });

  it('accepts arguments as a JSON string and refuses what is not an object', async () => {
    const executor = executorWith([makeTool('echo', async (args) => ({ data: args.text }), { parameters: echoSchema })]);
    expect((await executor.execute('echo', '{"text":"hi"}')).finalText).toBe('hi');
    expect((await executor.execute('echo', '{oops')).finalText).toContain('not valid JSON');
    expect((await executor.execute('echo', [1])).finalText).toContain('must be a JSON object');
  });

  it('strips `limit` before validation and the run, and truncates to it (0/-1 = everything)', async () => {
    const seen: unknown[] = [];
    const long = 'x'.repeat(10_000);
    const executor = executorWith([makeTool('echo', async (args) => (seen.push(args), { data: long }), { parameters: { ...echoSchema, required: [] } })]);
    const cut = await executor.execute('echo', { text: 'a', limit: 100 }, { callId: 'c1' });
    expect(seen[0]).toEqual({ text: 'a' });
    expect(cut).toMatchObject({ status: 'SUCCESS', isTruncated: true, truncation: { keptLength: 100, originalLength: 10_000 } });
    expect((await executor.execute('echo', { limit: -1 })).finalText).toBe(long);
    expect((await executor.execute('echo', { limit: 0 })).isTruncated).toBe(false);
    expect((await executor.execute('echo', {})).truncation?.keptLength).toBe(8000);
  });

  it('leaves `limit` to tools that declare it', async () => {
    const seen: unknown[] = [];
    const executor = executorWith([makeTool('search', async (args) => (seen.push(args), { data: 'y'.repeat(50) }), { parameters: { type: 'object', properties: { limit: { type: 'integer' } } } })]);
    const result = await executor.execute('search', { limit: 5 });
    expect(seen).toEqual([{ limit: 5 }]);
    expect(result.isTruncated).toBe(false);
  });

  it('applies the truncation defaults: executor option, then DEFAULT_OUTPUT_LIMIT_CHAR', async () => {
    const text = 'z'.repeat(1000);
    const executor = executorWith([makeTool('a', async () => ({ data: text })), makeTool('b', async () => ({ data: text }), { DEFAULT_OUTPUT_LIMIT_CHAR: 300 })], { truncateChars: 500 });
    expect((await executor.execute('a', {})).truncation?.keptLength).toBe(500);
    expect((await executor.execute('b', {})).truncation?.keptLength).toBe(300);
  });

  it('truncates emoji output without splitting pairs and hints at the variable and the next ReadVar slice', async () => {
    const text = '😀'.repeat(500);
    const executor = executorWith([makeTool('emo', async () => ({ data: text }))]);
    const result = await executor.execute('emo', { limit: 100 }, { callId: 'k' });
    expect(result.finalText).toContain('showing 100 of 500 characters (400 omitted)');
    expect(result.finalText).toContain('$VAR_REF{{emo_k_result}}');
    expect(result.finalText).toContain('ReadVar {"name":"emo_k_result","start":60,"length":100}');
    expect(executor.variables.peek('emo_k_result')?.value).toBe(text);
    const next = await executor.execute('ReadVar', { name: 'emo_k_result', start: 60, length: 100 });
    expect(next.data).toBe('😀'.repeat(100));
  });

  it('caches the full result and the args, but not for vars tools or SKIP_CACHE_RESULT tools', async () => {
    const executor = executorWith([makeTool('a', async () => ({ data: { n: 1 } })), makeTool('quiet', async () => ({ data: 1 }), { SKIP_CACHE_RESULT: true })]);
    const result = await executor.execute('a', { q: 'x' }, { callId: 'c9' });
    expect(result).toMatchObject({ cacheVarResult: 'a_c9_result', cacheVarArgs: 'a_c9_args', formattedText: '{"n":1}' });
    expect(executor.variables.peek('a_c9_result')).toMatchObject({ type: 'ToolCallResult', value: '{"n":1}' });
    expect(executor.variables.peek('a_c9_args')).toMatchObject({ type: 'ToolCallArgs', value: '{"q":"x"}' });
    const before = executor.variables.size;
    await executor.execute('ListVars', {});
    await executor.execute('ReadVar', { name: 'a_c9_result' });
    expect((await executor.execute('quiet', {})).cacheVarResult).toBeUndefined();
    expect(executor.variables.size).toBe(before);
  });

  it('keeps cached variable names reachable whatever the call id holds', async () => {
    const executor = executorWith([makeTool('a', async () => ({ data: 'r' }))]);
    const result = await executor.execute('a', {}, { callId: 'call {x} 1' });
    expect(result.cacheVarResult).toBe('a_call__x__1_result');
    expect(result.callId).toBe('call {x} 1');
  });

  it('turns a throwing tool into ERROR with its message', async () => {
    const executor = executorWith([makeTool('boom', async () => { throw new Error('disk on fire'); })]);
    const result = await executor.execute('boom', {});
    expect(result).toMatchObject({ status: 'ERROR', error: 'disk on fire', finalText: 'Error: disk on fire' });
  });

  it('passes on an ERROR the tool reports itself, with its data', async () => {
    const executor = executorWith([makeTool('bad', async () => ({ status: 'ERROR', error: 'no such file', data: { path: '/x' } }))]);
    const result = await executor.execute('bad', {});
    expect(result).toMatchObject({ status: 'ERROR', error: 'no such file', finalText: 'Error: no such file\n{"path":"/x"}' });
  });

  it('bounds a huge error like a result: the model gets head and tail, the variable keeps it all', async () => {
    const stderr = `Traceback start\n${'x'.repeat(50_000)}\nreal cause at the end`;
    const executor = executorWith([makeTool('loud', async () => ({ status: 'ERROR', error: `script error: ${stderr}` }))], { truncateChars: 1000 });
    const result = await executor.execute('loud', {}, { callId: 'c1' });
    expect(result.status).toBe('ERROR');
    expect(result.isTruncated).toBe(true);
    expect(result.finalText!.length).toBeLessThan(1600);
    expect(result.finalText).toContain('Traceback start');
    expect(result.finalText).toContain('real cause at the end');
    expect(result.finalText).toContain('$VAR_REF{{loud_c1_result}}');
    expect(executor.variables.get('loud_c1_result')?.value).toBe(`Error: script error: ${stderr}`);
  });

  it('times out a tool that never resolves (executor default and per tool)', async () => {
    const executor = executorWith(
      [makeTool('hang', () => new Promise(() => {})), makeTool('slow', () => new Promise(() => {}), { timeoutMs: 20 })],
      { toolTimeoutMs: 40, stopGraceMs: 100 },
    );
    const started = Date.now();
    const [hang, slow] = await Promise.all([executor.execute('hang', {}), executor.execute('slow', {})]);
    // Without a timeout of its own the tool runs under the settings' limit: the message says where.
    expect(hang).toMatchObject({ status: 'ERROR', error: "hang timed out after 40 ms and was stopped — raise the tool's timeout in Settings → Limits → Tool timeout (limits.toolTimeoutMs)." });
    expect(slow.error).toContain('after 20 ms');
    expect(slow.error).toBe('slow timed out after 20 ms and was stopped.');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("gives the tool's own timeout message whatever the tool reports once stopped, with its logs", async () => {
    const stopsWithItsOwnWords = makeTool(
      'fmt',
      (_a, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ status: 'ERROR', error: 'killed by SIGTERM', logs: 'step 1\nstep 2', warnings: ['ran unsandboxed'] }))),
      { timeoutMs: 1500, timeoutMessage: (ms) => `fmt error: timed out after ${ms / 1000} s — raise the tool's timeout in fmt.json` },
    );
    const brokenMessage = makeTool('broken', () => new Promise(() => {}), { timeoutMs: 30, timeoutMessage: () => { throw new Error('bug'); } });
    const executor = executorWith([stopsWithItsOwnWords, brokenMessage], { stopGraceMs: 100 });
    const result = await executor.execute('fmt', {});
    expect(result).toMatchObject({
      status: 'ERROR',
      error: "fmt error: timed out after 1.5 s — raise the tool's timeout in fmt.json",
      finalText: "Error: fmt error: timed out after 1.5 s — raise the tool's timeout in fmt.json",
      logs: 'step 1\nstep 2',
      warnings: ['ran unsandboxed'],
    });
    expect((await executor.execute('broken', {})).error).toBe('broken timed out after 30 ms and was stopped.');
  });

  it('gives SUCCESS with a text that says there was no output when a tool returns undefined', async () => {
    const executor = executorWith([makeTool('void', async () => undefined)]);
    const result = await executor.execute('void', {});
    expect(result.status).toBe('SUCCESS');
    expect(result.formattedText).toBe('');
    expect(result.finalText).toMatch(/no output/);
  });

  it('uses the tool-provided formattedText and formatForLLM', async () => {
    const executor = executorWith([
      makeTool('own', async () => ({ data: [1, 2], formattedText: 'two rows' })),
      makeTool('fmt', async () => ({ data: [1, 2, 3] }), { formatForLLM: (d) => `${(d as unknown[]).length} rows` }),
    ]);
    expect((await executor.execute('own', {})).finalText).toBe('two rows');
    expect((await executor.execute('fmt', {})).finalText).toBe('3 rows');
  });

  it('forwards onUpdate and aborts a running tool with the caller signal', async () => {
    const updates: unknown[] = [];
    const executor = executorWith([
      makeTool('stream', async (_a, ctx) => (ctx.onUpdate({ text: 'part' }), { data: 'done' })),
      makeTool('hang', () => new Promise(() => {})),
    ], { stopGraceMs: 100 });
    await executor.execute('stream', {}, { onUpdate: (u) => updates.push(u) });
    expect(updates).toEqual([{ text: 'part' }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop pressed')), 5);
    const aborted = await executor.execute('hang', {}, { signal: controller.signal });
    expect(aborted).toMatchObject({ status: 'ERROR', error: expect.stringContaining('stop pressed') });
  });

  it('close() aborts running tools', async () => {
    let signal: AbortSignal | undefined;
    const executor = executorWith([makeTool('hang', (_a, ctx) => ((signal = ctx.signal), new Promise(() => {})))], { stopGraceMs: 100 });
    const pending = executor.execute('hang', {});
    await new Promise((r) => setTimeout(r, 5));
    executor.close();
    expect((await pending).status).toBe('ERROR');
    expect(signal?.aborted).toBe(true);
  });

  it('reports variable changes so sessions can persist them', async () => {
    const executor = executorWith([makeTool('a', async () => ({ data: 'r' }))]);
    const changes: string[] = [];
    const dispose = executor.onVariablesChanged((c) => changes.push(`${c.kind}:${c.name}`));
    await executor.execute('a', {}, { callId: 'c' });
    dispose();
    await executor.execute('a', {}, { callId: 'd' });
    expect(changes).toEqual(['add:a_c_result', 'add:a_c_args']);
  });

  it('runs onSession hooks and logs the ones that throw', async () => {
    const events: string[] = [];
    const logged: string[] = [];
    const executor = executorWith(
      [
        makeTool('a', undefined, { onSession: (e) => { events.push(`${e.reason}:${e.sessionId}`); } }),
        makeTool('b', undefined, { onSession: async () => { throw new Error('hook failed'); } }),
      ],
      { log: (m) => logged.push(m) },
    );
    await executor.notifySession('start');
    expect(events).toEqual(['start:s1']);
    expect(logged[0]).toContain('hook failed');
  });
});

describe('ToolExecutor call tracing', () => {
  it('traces the calls of tools loaded from a file or a server, and runs in-process tools untraced', async () => {
    const traced = (name: string) => makeTool(name, async () => ({ data: currentCallTrace() !== undefined }));
    const fromFile = { ...traced('from_file'), source: { format: 'script' as const, file: '/tools/from_file.json' } };
    const executor = executorWith([fromFile, traced('in_process')]);
    expect((await executor.execute('from_file', {})).data).toBe(true);
    expect((await executor.execute('in_process', {})).data).toBe(false);
    // Both keep an Inspect record, with no processes for the untraced one.
    expect((await executor.execute('in_process', {})).inspection?.processes).toEqual([]);
  });
});
