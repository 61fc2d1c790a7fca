import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunner } from '../../../electron/runtime/runner/create-runner.ts';
import { mapSecretResolver } from '../../../electron/runtime/runner/secret-resolver.ts';
import { DECLARATIVE_MESSAGE } from '../../../electron/runtime/sources/module/entry-files.ts';
import { loadModuleFactories } from '../../../electron/runtime/sources/module/index.ts';
import { fixtureEntries, TOOL_FIXTURES, toolsByName } from '../../support/fixture-entries.ts';
import { makeTmpHome, testSourceContext, testToolContext } from '../../support/tool-source-context.ts';

async function load(caseName: string, ctx = testSourceContext()) {
  const result = await loadModuleFactories(fixtureEntries(caseName), ctx);
  return { ...result, tools: toolsByName(result.groups), ctx };
}

describe('module tools (seed 003)', () => {
  it("runs the seed's repo_stats factory unchanged: typebox schema, onUpdate, exec through the runner", async () => {
    const repo = makeTmpHome();
    execFileSync('git', ['init', '-q', repo]);
    for (const file of ['a.ts', 'b.ts', 'c.md']) writeFileSync(join(repo, file), '');
    execFileSync('git', ['-C', repo, 'add', '.']);
    const { groups, tools, diagnostics } = await load('module-repo-stats', testSourceContext({ workingDir: repo }));
    expect(diagnostics).toEqual([]);
    expect(groups.map((g) => g.name)).toEqual(['repo_stats']);
    const tool = tools.get('repo_stats')!;
    expect(tool.definition.function).toMatchObject({ description: 'Counts tracked TypeScript files', parameters: { type: 'object', properties: { glob: { type: 'string', default: '**/*.ts' } } } });
    expect(tool.meta).toMatchObject({ label: 'Repo Stats', shape: 'factory', host: 'oh-my-pi' });
    expect(tool.onSession).toBeTypeOf('function');
    const ctx = testToolContext();
    const result = await tool.execute({ glob: '*.ts' }, ctx);
    expect(result).toEqual({ status: 'SUCCESS', data: { text: 'Found 2 files', details: { count: 2, sample: ['a.ts', 'b.ts'] } }, formattedText: 'Found 2 files' });
    expect(ctx.updates).toEqual([{ text: 'Scanning files...', details: { phase: 'scan' } }]);
    await expect(tool.onSession!({ reason: 'shutdown', sessionId: 's' })).resolves.toBeUndefined();
  });

  it('calls each shape in its host’s argument order', async () => {
    const { tools, diagnostics } = await load('module-shapes');
    expect(diagnostics).toEqual([]);
    const ctx = testToolContext({ callId: 'c7' });
    const omp = await tools.get('omp_echo')!.execute({ text: 'hi' }, ctx);
    expect(omp).toMatchObject({ status: 'SUCCESS', formattedText: 'omp: hi', data: { details: { toolCallId: 'c7', onUpdate: 'function', signal: true, session: 'function', hasUI: false, apiHasUI: false } } });
    expect(ctx.updates).toEqual([{ text: 'echoing...', details: { phase: 'start' } }]);
    const piMono = await tools.get('pi_mono_greet')!.execute({ name: 'Ada', tone: 'warm' }, testToolContext());
    expect(piMono).toMatchObject({ status: 'SUCCESS', formattedText: 'Hello, Ada! (warm)', data: { details: { signal: true, onUpdate: 'function' } } });
    expect(tools.get('pi_mono_greet')!.definition.function.parameters).toMatchObject({ properties: { tone: { type: 'string', enum: ['warm', 'formal'] } } });
    expect(await tools.get('earendil_shout')!.execute({ text: 'quiet' }, testToolContext())).toMatchObject({ status: 'SUCCESS', formattedText: 'QUIET' });
    expect(await tools.get('omp_ext_sum')!.execute({ a: 2, b: 3 }, testToolContext())).toMatchObject({ status: 'SUCCESS', formattedText: '5' });
    expect(await tools.get('early_upper')!.execute({ text: 'abc' }, testToolContext())).toMatchObject({ status: 'SUCCESS', formattedText: 'ABC' });
    expect(tools.get('pi_mono_greet')!.meta).toMatchObject({ shape: 'extension', host: 'pi-mono' });
    expect(tools.get('earendil_shout')!.meta).toMatchObject({ shape: 'extension', host: 'pi-mono' });
    expect(tools.get('omp_ext_sum')!.meta).toMatchObject({ shape: 'extension', host: 'oh-my-pi' });
    // pi-mono's own custom tools take the signal third too; names decide when there is no host import.
    expect(await tools.get('pi_mono_factory_check')!.execute({}, testToolContext())).toMatchObject({ formattedText: 'signal third' });
    expect(tools.get('pi_mono_factory_check')!.meta).toMatchObject({ shape: 'factory', host: 'pi-mono', executeOrder: 'signal-third' });
    expect(await tools.get('named_params_check')!.execute({}, testToolContext())).toMatchObject({ formattedText: 'signal third' });
    expect(tools.get('omp_echo')!.meta).toMatchObject({ executeOrder: 'update-third' });
    expect(await tools.get('earendil_pick')!.execute({ choice: 'b' }, testToolContext())).toMatchObject({ status: 'SUCCESS', formattedText: 'picked b' });
    expect(await tools.get('xcsh_ext_len')!.execute({ text: 'four' }, testToolContext())).toMatchObject({ status: 'SUCCESS', formattedText: '4' });
    expect(tools.get('xcsh_ext_len')!.meta).toMatchObject({ shape: 'extension', host: 'oh-my-pi' });
  });

  it('loads an async factory returning nine tools, ESM .mjs, zod parameters, and a UI tool that answers headless', async () => {
    const ctx = testSourceContext();
    const { tools, groups } = await load('module-shapes', ctx);
    expect(groups.find((g) => g.name === 'xcsh_nine')!.tools.map((t) => t.definition.function.name)).toEqual(Array.from({ length: 9 }, (_, i) => `xcsh_nine_${i + 1}`));
    expect(await tools.get('xcsh_nine_7')!.execute({}, testToolContext())).toMatchObject({ formattedText: 'I am 7' });
    expect(await tools.get('esm_cwd')!.execute({}, testToolContext())).toMatchObject({ formattedText: ctx.workingDir });
    expect(tools.get('zod_hello')!.definition.function.parameters).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Name to greet' },
        times: { type: 'integer', default: 1 },
        mood: { type: 'string', enum: ['happy', 'calm'] },
      },
      required: ['name'],
    });
    expect(tools.get('omp_ext_sum')!.definition.function.parameters).toMatchObject({ required: ['a'], properties: { a: { type: 'number', description: 'first' }, b: { type: 'integer' } } });
    expect(await tools.get('pick_color')!.execute({}, testToolContext())).toMatchObject({ status: 'SUCCESS', formattedText: 'pick_color needs an interactive UI; none is attached.' });
    expect(await tools.get('tla_tool')!.execute({}, testToolContext())).toMatchObject({ status: 'SUCCESS', formattedText: 'awaited at load' });
  });

  it('reaches execute’s signal when the executor aborts, and reports the throw as an error', async () => {
    const { tools } = await load('module-shapes');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await tools.get('omp_wait_abort')!.execute({}, testToolContext({ signal: controller.signal }))).toEqual({ status: 'ERROR', error: 'stopped by abort' });
  });

  it('maps pi.on(session_*) handlers to onSession', async () => {
    const ctx = testSourceContext();
    const { tools } = await load('module-shapes', ctx);
    const tool = tools.get('pi_mono_greet')!;
    await tool.onSession!({ reason: 'start', sessionId: 's1' });
    expect(readFileSync(join(ctx.workingDir, '.pi-mono-session-started'), 'utf8')).toBe(ctx.workingDir);
  });

  it('honours package.json pi.extensions, the tool’s own node_modules, ./x.js → x.ts, and index.ts over index.js', async () => {
    const { tools, diagnostics, groups } = await load('module-package');
    expect(diagnostics).toEqual([]);
    expect(groups.map((g) => g.name).sort()).toEqual(['ext_pkg', 'prio']);
    expect(await tools.get('pkg_shout')!.execute({ text: 'hey' }, testToolContext())).toMatchObject({ formattedText: 'HEY! (from util.ts)' });
    expect(tools.get('prio_tool')!.definition.function.description).toBe('from index.ts');
  });

  it('gives default, named and namespace imports of a CommonJS package, an ES module package and a built-in (issue 11 §9)', async () => {
    const { tools, diagnostics } = await load('module-imports');
    expect(diagnostics).toEqual([]);
    const result = await tools.get('import_interop')!.execute({}, testToolContext());
    expect(result.status).toBe('SUCCESS');
    expect(JSON.parse(result.formattedText!)).toEqual({
      cjsDefault: '5 ms',
      cjsNamed: 42,
      cjsNamespaceDefault: '7 ms',
      esmDefault: 'hello ada',
      esmNamed: '!',
      esmNamespace: 'hello bob!',
      builtinDefault: join('a', 'b'),
      builtinNamed: 'y.txt',
      builtinNamespace: '.md',
      bareBuiltinDefault: 'string',
    });
  });

  it('turns every broken module into a diagnostic naming its file', async () => {
    const { tools, diagnostics } = await load('module-broken');
    const about = (file: string) => diagnostics.filter((d) => d.file === join(TOOL_FIXTURES, 'module-broken', file)).map((d) => d.message);
    expect(about('throws.ts')).toEqual(['Tool factory threw: factory exploded while starting']);
    expect(about('no_default.ts')).toEqual(['Tool must export a default function']);
    expect(about('returns_nothing.ts')).toEqual(['The factory returned no tools']);
    expect(about('no_name.ts')).toEqual(['A tool from this module has no name']);
    expect(about('no_execute.ts')).toEqual(['Tool "lazy" has no execute function']);
    expect(about('syntax_error.ts')[0]).toMatch(/^Cannot load module: /);
    expect(about('declared/TOOL.md')).toEqual([DECLARATIVE_MESSAGE]);
    expect(about('declared/package.json')[0]).toContain('"./missing.ts", which does not exist');
    expect(tools.size).toBe(0);
  });

  it('runs exec through the runner: timeout and abort kill the process and report killed', async () => {
    const root = makeTmpHome();
    writeFileSync(
      join(root, 'sleeper.ts'),
      `export default (api: any) => ({ name: "sleeper", execute: async (_id: string, p: { ms?: number }, _u: unknown, _c: unknown, signal: AbortSignal) => {
        const r = await api.exec("sleep", ["5"], { signal, timeout: p.ms });
        return { content: [{ type: "text", text: JSON.stringify({ killed: r.killed, code: r.code }) }] };
      } });\n`,
    );
    const { tools } = await loadModuleFactories([{ root, path: join(root, 'sleeper.ts'), format: 'module' }], testSourceContext()).then((r) => ({ tools: toolsByName(r.groups) }));
    const started = Date.now();
    expect(await tools.get('sleeper')!.execute({ ms: 100 }, testToolContext())).toMatchObject({ formattedText: expect.stringContaining('"killed":true') });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await tools.get('sleeper')!.execute({}, testToolContext({ signal: controller.signal }))).toMatchObject({ formattedText: expect.stringContaining('"killed":true') });
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it("puts what execute logged through api.logger into the result's logs", async () => {
    const root = makeTmpHome();
    writeFileSync(
      join(root, 'chatty.ts'),
      'export default (api: any) => ({ name: "chatty", execute: async () => { api.logger.info("step", { n: 1 }); api.logger.warn("careful"); return { content: [{ type: "text", text: "done" }] }; } });\n',
    );
    const { groups } = await loadModuleFactories([{ root, path: join(root, 'chatty.ts'), format: 'module' }], testSourceContext());
    expect(await toolsByName(groups).get('chatty')!.execute({}, testToolContext())).toEqual({ status: 'SUCCESS', data: 'done', formattedText: 'done', logs: '[info] step {"n":1}\n[warn] careful' });
  });

  it('reloads an edited module fresh (no stale module cache), including the files it imports', async () => {
    const root = makeTmpHome();
    const dir = join(root, 'live');
    mkdirSync(dir);
    const write = (version: number) => {
      writeFileSync(join(dir, 'version.ts'), `export const version = ${version};\n`);
      writeFileSync(join(dir, 'index.ts'), `import { version } from "./version.js";\nexport default () => ({ name: "live_v", description: "v" + version, execute: async () => ({ content: [{ type: "text", text: String(version) }] }) });\n`);
    };
    write(1);
    const ctx = testSourceContext();
    const entries = [{ root, path: dir, format: 'module' as const }];
    const first = toolsByName((await loadModuleFactories(entries, ctx)).groups).get('live_v')!;
    writeFileSync(join(dir, 'version.ts'), 'export const version = 2;\n');
    const second = toolsByName((await loadModuleFactories(entries, ctx)).groups).get('live_v')!;
    expect(await first.execute({}, testToolContext())).toMatchObject({ formattedText: '1' });
    expect(await second.execute({}, testToolContext())).toMatchObject({ formattedText: '2' });
  });

  it('gives each module of a host its own copy of a file they both import (one jiti serves every load)', async () => {
    const root = makeTmpHome();
    writeFileSync(join(root, 'counter.ts'), 'let n = 0;\nexport const next = (): number => ++n;\n');
    for (const name of ['count_a', 'count_b']) {
      writeFileSync(join(root, `${name}.ts`), `import { next } from "./counter.ts";\nexport default () => ({ name: "${name}", description: "counts", execute: async () => ({ content: [{ type: "text", text: String(next()) }] }) });\n`);
    }
    const entries = ['count_a.ts', 'count_b.ts'].map((file) => ({ root, path: join(root, file), format: 'module' as const }));
    const tools = toolsByName((await loadModuleFactories(entries, testSourceContext())).groups);
    const text = async (name: string) => ((await tools.get(name)!.execute({}, testToolContext())) as { formattedText?: string }).formattedText;
    expect([await text('count_a'), await text('count_a'), await text('count_b')]).toEqual(['1', '2', '1']);
  });

  it('passes a tool’s declared secrets to the processes its exec() starts, as env vars, redacted from their output', async () => {
    const root = makeTmpHome();
    const SECRET = 'sk-module-41f0c2d9';
    // Prints the key's length (it arrived) and the key itself (which the runner must redact).
    const probe = `console.log(String(process.env.API_KEY ?? '').length, process.env.API_KEY ?? 'absent', process.env.OTHER_KEY ?? 'absent')`;
    writeFileSync(
      join(root, 'keyed.ts'),
      `const probe = (api: any) => api.exec(process.execPath, ["-e", ${JSON.stringify(probe)}]).then((r: any) => ({ content: [{ type: "text", text: (r.stdout + r.stderr).trim() + " code=" + r.code }] }));
export default (api: any) => [
  { name: "keyed", secrets: ["API_KEY"], execute: async () => probe(api) },
  { name: "keyless", execute: async () => probe(api) },
  { name: "needs_missing", secrets: ["MISSING_KEY"], execute: async () => probe(api) },
];\n`,
    );
    writeFileSync(join(root, 'bad_secrets.ts'), 'export default () => ({ name: "bad_secrets", secrets: "API_KEY", execute: async () => "x" });\n');
    const ctx = testSourceContext({ runner: createRunner({ resolveSecrets: mapSecretResolver({ API_KEY: SECRET, OTHER_KEY: 'other-value' }) }) });
    const entries = ['keyed.ts', 'bad_secrets.ts'].map((file) => ({ root, path: join(root, file), format: 'module' as const }));
    const { groups, diagnostics } = await loadModuleFactories(entries, ctx);
    const tools = toolsByName(groups);
    expect(tools.get('keyed')!.secrets).toEqual(['API_KEY']);
    expect(tools.get('keyless')!.secrets).toBeUndefined();
    const keyed = await tools.get('keyed')!.execute({}, testToolContext());
    expect(keyed).toMatchObject({ status: 'SUCCESS', formattedText: `${SECRET.length} [secret:API_KEY] absent code=0` });
    expect(JSON.stringify(keyed)).not.toContain(SECRET);
    // A sibling tool of the same module that declares nothing gets nothing.
    expect(await tools.get('keyless')!.execute({}, testToolContext())).toMatchObject({ formattedText: '0 absent absent code=0' });
    expect(await tools.get('needs_missing')!.execute({}, testToolContext())).toMatchObject({
      formattedText: 'missing secret: MISSING_KEY. Set it in Settings → Secrets, or run `tooldesk secrets set MISSING_KEY`. code=127',
    });
    expect(diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', file: join(root, 'bad_secrets.ts'), message: 'Tool "bad_secrets": "secrets" must be an array of key names', code: 'module-bad-secrets' }),
    ]);
    expect(tools.has('bad_secrets')).toBe(false);
  });

  describe('real tools’ host usage (pi-mono, earendil’s pi, oh-my-pi)', () => {
    it('resolves TypeBox 1.x imported as "typebox" (and typebox/value), with flags and render hooks ignored', async () => {
      const { tools, diagnostics } = await load('module-compat');
      expect(diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
      const tool = tools.get('first_words')!;
      expect(tool.definition.function.parameters).toMatchObject({ type: 'object', properties: { text: { type: 'string', description: 'Some words' } }, required: ['text'] });
      expect(tool.meta).toMatchObject({ host: 'pi-mono', executeOrder: 'signal-third' });
      expect(await tool.execute({ text: 'one two three four' }, testToolContext())).toMatchObject({ status: 'SUCCESS', formattedText: 'one two three (valid: true)' });
    });

    it('finds tools an extension registers in session_start, and runs each session handler only for its own event', async () => {
      const { tools, ctx } = await load('module-compat');
      const tool = tools.get('late_echo')!;
      expect(await tool.execute({ message: 'hi' }, testToolContext())).toMatchObject({ status: 'SUCCESS', formattedText: '[late] hi' });
      const runs = join(ctx.workingDir, '.compat-shutdown-runs');
      await tool.onSession!({ reason: 'start', sessionId: 's1' });
      expect(existsSync(runs)).toBe(false);
      await tool.onSession!({ reason: 'shutdown', sessionId: 's1' });
      expect(readFileSync(runs, 'utf8')).toBe('run\n');
    });

    it('reports an extension without tools (only commands and event handlers) as info, not an error', async () => {
      const { diagnostics, groups, ctx } = await load('module-compat');
      const file = join(TOOL_FIXTURES, 'module-compat', 'events_only.ts');
      expect(diagnostics.filter((d) => d.file === file)).toEqual([expect.objectContaining({ severity: 'info', code: 'module-no-tools' })]);
      expect(groups.map((g) => g.name)).not.toContain('events_only');
      expect(existsSync(join(ctx.workingDir, '.compat-events-only-started'))).toBe(false);
    });

    it('gives pi.events a working bus, also for emits after execute returned', async () => {
      const { tools } = await load('module-compat');
      expect(await tools.get('start_job')!.execute({ id: 'j1' }, testToolContext())).toMatchObject({ formattedText: 'started j1' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await tools.get('jobs_seen')!.execute({}, testToolContext())).toMatchObject({ formattedText: '[{"id":"j1"}]' });
    });

    it('provides the UI classes and text/truncation helpers tools import, and keeps a result image as a placeholder', async () => {
      const { tools } = await load('module-compat');
      const result = await tools.get('helpers_report')!.execute({ lines: 5 }, testToolContext());
      expect(result).toMatchObject({ status: 'SUCCESS', data: { details: { lines: 5 } } });
      expect(result.formattedText).toBe(
        ['abc...', '4', 'one two|three', 'line 1,line 2 by lines 2/5 13B', 'line 4,line 5', 'false ctrl+c true', '1 draft 50.0KB', '[image image/png]'].join('\n'),
      );
    });

    it('reads a zod object whose fields are TypeBox schemas (StringEnum, Type.Optional)', async () => {
      const { tools } = await load('module-compat');
      const tool = tools.get('mixed_schema')!;
      expect(tool.definition.function.parameters).toEqual({
        type: 'object',
        properties: { action: { type: 'string', enum: ['list', 'add'] }, limit: { type: 'integer', minimum: 1 }, note: { type: 'string' } },
        required: ['action'],
      });
      expect(await tool.execute({ action: 'add', limit: 2 }, testToolContext())).toMatchObject({ formattedText: 'add 2' });
    });

    it('keeps one module’s surprise (a throwing getter) from costing the other modules their tools', async () => {
      const root = makeTmpHome();
      writeFileSync(join(root, 'a_trap.ts'), 'export default () => ({ name: "trap", get parameters() { throw new Error("no schema today"); }, execute: async () => "x" });\n');
      writeFileSync(join(root, 'b_fine.ts'), 'export default () => ({ name: "fine", execute: async () => "ok" });\n');
      const entries = ['a_trap.ts', 'b_fine.ts'].map((file) => ({ root, path: join(root, file), format: 'module' as const }));
      const { groups, diagnostics } = await loadModuleFactories(entries, testSourceContext());
      expect([...toolsByName(groups).keys()]).toEqual(['fine']);
      expect(diagnostics).toEqual([expect.objectContaining({ severity: 'error', file: join(root, 'a_trap.ts'), message: 'Cannot load module: no schema today' })]);
    });

    it('answers provider-key lookups with nothing and names built-in tools as unavailable', async () => {
      const { tools } = await load('module-compat');
      expect(await tools.get('needs_provider_key')!.execute({}, testToolContext())).toEqual({ status: 'ERROR', error: 'Missing google credentials. Run /login.' });
      expect(await tools.get('ctx_probe')!.execute({}, testToolContext())).toMatchObject({ status: 'SUCCESS', formattedText: 'false false true 0 true 0' });
      expect(await tools.get('wraps_bash')!.execute({ command: 'ls' }, testToolContext())).toEqual({ status: 'ERROR', error: 'createBashTool: pi’s built-in tools are not available in Tooldesk' });
    });
  });
});
