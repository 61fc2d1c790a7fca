import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RunSpec } from '../../../electron/runtime/runner/types.ts';
import { classifyEntry } from '../../../electron/runtime/sources/discovery/classify-entry.ts';
import { loadScriptFolders } from '../../../electron/runtime/sources/script-folder/index.ts';
import type { SourceEntry } from '../../../electron/runtime/sources/types.ts';
import type { Tool } from '../../../electron/runtime/tools/types.ts';
import { testSourceContext, testToolContext } from '../../support/tool-source-context.ts';
import { readdirSync, statSync } from 'node:fs';

const FIXTURES = fileURLToPath(new URL('../../fixtures/tools/', import.meta.url));

function entriesOf(caseName: string): SourceEntry[] {
  const root = join(FIXTURES, caseName);
  return readdirSync(root)
    .sort()
    .map((name) => classifyEntry(root, join(root, name), statSync(join(root, name)).isDirectory()))
    .filter((e): e is SourceEntry => e !== null);
}

async function load(caseName: string, ctx = testSourceContext()) {
  const result = await loadScriptFolders(entriesOf(caseName), ctx);
  const tools = new Map<string, Tool>(result.groups.flatMap((g) => g.tools).map((t) => [t.definition.function.name, t]));
  return { ...result, tools, ctx };
}

describe('script-folder tools (seed 001)', () => {
  it('says at load time, naming the file, when a hand-written schema is not valid JSON Schema', async () => {
    const { tools, diagnostics } = await load('script-invalid-enum');
    expect(diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'invalid-schema', file: join(FIXTURES, 'script-invalid-enum/pick_mode/tool.json'), message: expect.stringContaining('parameters.properties.mode.enum must be array') }),
    ]);
    // It still loads and runs, as in Agenvoy, which passes the schema through unchecked.
    expect(await tools.get('script_pick_mode')!.execute({ mode: 'fast' }, testToolContext())).toMatchObject({ status: 'SUCCESS', data: { mode: 'fast' } });
  });

  it('registers the seed RSI tool as script_<name> in the script group with its schema and always_allow', async () => {
    const { groups, tools, diagnostics } = await load('script-seed');
    expect(groups.map((g) => g.name)).toEqual(['script']);
    const rsi = tools.get('script_calculate_rsi')!;
    expect(rsi.permission).toEqual({ executionPolicy: 'auto' });
    expect(rsi.timeoutMs).toBe(60_000);
    expect(rsi.definition.function.parameters).toMatchObject({ type: 'object', required: ['symbol'] });
    expect(rsi.source).toMatchObject({ format: 'script', file: join(FIXTURES, 'script-seed/calculate_rsi/tool.json') });
    expect(tools.get('script_calculate_rsi_js')!.permission).toEqual({ executionPolicy: 'ask-always' });
    // rsi-js holds calculate_rsi_js: a note, not an error
    expect(diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  });

  it('runs the Python and JavaScript seed templates: stdin JSON in, parsed JSON out', async () => {
    const { tools } = await load('script-seed');
    const py = await tools.get('script_calculate_rsi')!.execute({ symbol: 'AAPL' }, testToolContext());
    expect(py).toMatchObject({ status: 'SUCCESS', data: { symbol: 'AAPL', period: 14, rsi: 50 } });
    const js = await tools.get('script_calculate_rsi_js')!.execute({ symbol: 'BTC-USD', period: 9 }, testToolContext());
    expect(js).toMatchObject({ status: 'SUCCESS', data: { symbol: 'BTC-USD', period: 9, rsi: 50 } });
    const missing = await tools.get('script_calculate_rsi')!.execute({}, testToolContext());
    expect(missing).toEqual({ status: 'ERROR', error: 'script error: missing required parameter: symbol', logs: 'missing required parameter: symbol' });
  });

  it('keeps non-JSON stdout as text, stderr with exit 0 as logs, a JSON error object as a normal result', async () => {
    const { tools } = await load('script-behaviour');
    expect(await tools.get('script_plain_text')!.execute({}, testToolContext())).toEqual({ status: 'SUCCESS', data: 'just some words' });
    const noisy = await tools.get('script_noisy')!.execute({ q: 'x' }, testToolContext());
    expect(noisy.status).toBe('SUCCESS');
    expect(noisy.logs).toBe('debug: got {"q":"x"}');
    expect(noisy.data).toMatchObject({ echoed: { q: 'x' } });
    expect(await tools.get('script_json_error')!.execute({}, testToolContext())).toEqual({ status: 'SUCCESS', data: { success: false, error: 'video not found' } });
  });

  it('runs in the app working folder', async () => {
    const ctx = testSourceContext();
    const { tools } = await load('script-behaviour', ctx);
    const result = await tools.get('script_noisy')!.execute({}, testToolContext());
    expect((result.data as { cwd: string }).cwd).toBe(ctx.workingDir);
  });

  it('turns exit 1 into `script error: <stderr>` and an empty stdout into a warning', async () => {
    const { tools } = await load('script-behaviour');
    const failing = await tools.get('script_failing')!.execute({}, testToolContext());
    expect(failing).toMatchObject({ status: 'ERROR', error: 'script error: boom: bad input' });
    const silent = await tools.get('script_silent')!.execute({}, testToolContext());
    expect(silent.status).toBe('SUCCESS');
    expect(silent.warnings).toEqual(['the script exited 0 but printed nothing on stdout']);
  });

  it('stops a script at its tool.json timeout and kills it', async () => {
    const { tools } = await load('script-behaviour');
    const slow = tools.get('script_slow')!;
    expect(slow.timeoutMs).toBe(1000);
    const started = Date.now();
    const result = await slow.execute({}, testToolContext());
    expect(result).toMatchObject({ status: 'ERROR', error: `script error: timed out after 1 s and was stopped — raise the tool's timeout in ${join(FIXTURES, 'script-behaviour/slow/tool.json')} ("timeout": seconds, at most 300)` });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('aborts a running script when the signal fires', async () => {
    const { tools } = await load('script-behaviour');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await tools.get('script_slow')!.execute({}, testToolContext({ signal: controller.signal }));
    expect(result).toMatchObject({ status: 'ERROR', error: 'script error: aborted' });
  });

  it('prefers script.js when both exist and says so', async () => {
    const { tools, diagnostics } = await load('script-behaviour');
    expect(await tools.get('script_both')!.execute({}, testToolContext())).toEqual({ status: 'SUCCESS', data: { ran: 'js' } });
    expect(diagnostics).toContainEqual(expect.objectContaining({ code: 'script-shadowed', file: join(FIXTURES, 'script-behaviour/both/script.py') }));
  });

  it('names the tool from tool.json, keeps secrets and passes network + toolDir in the sandbox spec', async () => {
    const specs: RunSpec[] = [];
    const ctx = testSourceContext({ sandboxMode: 'auto', runner: async (spec) => {
      specs.push(spec);
      return { exitCode: 0, signal: null, stdout: '{}', stderr: '', timedOut: false, aborted: false, stdoutTruncated: false, stderrTruncated: false, durationMs: 1, sandboxed: false };
    } });
    const { tools, diagnostics } = await load('script-behaviour', ctx);
    const yt = tools.get('script_yt_dlp_download')!;
    expect(yt.secrets).toEqual(['YT_COOKIE']);
    expect(diagnostics).toContainEqual(expect.objectContaining({ severity: 'info', code: 'name-folder-mismatch' }));
    await yt.execute({ url: 'u' }, testToolContext());
    const spec = specs.find((s) => s.args.at(-1)?.endsWith('yt-dlp-downloader/script.py'))!;
    expect(spec.stdin).toBe('{"url":"u"}');
    expect(spec.secrets).toEqual(['YT_COOKIE']);
    expect(spec.timeoutMs).toBe(60_000);
    expect(spec.sandbox).toMatchObject({ mode: 'auto', toolDir: join(FIXTURES, 'script-behaviour/yt-dlp-downloader'), network: false, workDir: ctx.workingDir });
  });

  it('reports broken tool.json files with the file and the field, and still loads the rest', async () => {
    const { tools, diagnostics } = await load('script-broken');
    const at = (folder: string) => diagnostics.filter((d) => d.file === join(FIXTURES, 'script-broken', folder, 'tool.json'));
    expect(at('bad_json')[0]).toMatchObject({ severity: 'error', line: 1, code: 'invalid-json' });
    expect(at('no_name')[0]!.message).toContain('"name" is required');
    expect(at('bad_required')[0]!.message).toContain('"parameters.required" lists "b"');
    expect(at('bad_type')[0]!.message).toContain('"parameters.type" must be "object"');
    expect(at('path_name')[0]!.message).toContain('must not contain a path');
    expect(at('long_timeout')[0]!.message).toContain('300 s');
    expect([...tools.keys()].sort()).toEqual(['script_bad_required', 'script_bad_type', 'script_long_timeout']);
    expect(tools.get('script_long_timeout')!.timeoutMs).toBe(300_000);
    expect(tools.get('script_bad_required')!.definition.function.parameters.required).toEqual(['a']);
    // _private is skipped by classification
    expect(diagnostics.some((d) => d.file.includes('_private'))).toBe(false);
  });
});
