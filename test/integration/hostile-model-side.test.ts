// What a confused or malicious model can send: arguments that are not JSON or fail the schema,
// megabyte strings, $VAR_REF bombs, unknown and disabled tools, 50 parallel calls. Through the
// real ToolExecutor (and a real sandboxed script tool for the parallel calls): every call gets a
// clear result, nothing throws, memory stays bounded.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../shared/settings.ts';
import { discoverTools } from '../../electron/runtime/sources/discovery/discover-tools.ts';
import { createSourceContext } from '../../electron/runtime/sources/source-context.ts';
import { ToolExecutor } from '../../electron/runtime/tools/tool-executor.ts';
import type { Tool } from '../../electron/runtime/tools/types.ts';
import { realPython } from '../support/real-python.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'td-'));

const echo: Tool = {
  definition: {
    type: 'function',
    function: {
      name: 'echo',
      description: 'Echoes text.',
      parameters: { type: 'object', properties: { text: { type: 'string' }, times: { type: 'integer', minimum: 1, maximum: 3 } }, required: ['text'] },
    },
  },
  permission: { executionPolicy: 'auto' },
  async execute(args) {
    return { data: { length: String(args.text).length, head: String(args.text).slice(0, 40) } };
  },
};

function executor(): ToolExecutor {
  const ex = new ToolExecutor({ sessionId: 'hostile-model', approve: async () => ({ decision: 'once' }) });
  ex.registerToolGroup({ name: 'basic', tools: [echo] });
  ex.toggleGroupEnabled('basic', true);
  return ex;
}

describe('hostile model calls', () => {
  it('answers arguments that are not JSON, or not an object, with a clear error', async () => {
    const ex = executor();
    for (const raw of ['{"text": "unterminated', 'not json at all', '[1,2,3]', 'null', '42', '{"text": "a"}{"text": "b"}']) {
      const r = await ex.execute('echo', raw);
      expect(r.status, raw).toBe('ERROR');
      expect(r.finalText, raw).toMatch(/argument|JSON|object/i);
    }
    // A well-formed JSON string is accepted as the arguments object it encodes.
    expect((await ex.execute('echo', '{"text": "ok"}')).status).toBe('SUCCESS');
  });

  it('answers schema failures naming the field, and runs nothing', async () => {
    const ex = executor();
    const wrong = await ex.execute('echo', { text: 5, times: 'many', extra: { __proto__: { polluted: true } } });
    expect(wrong.status).toBe('ERROR');
    expect(wrong.finalText).toMatch(/text|times/);
    const missing = await ex.execute('echo', {});
    expect(missing.finalText).toMatch(/text/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('takes a 1 MB string argument and keeps what goes back to the model small', async () => {
    const ex = executor();
    const big = 'x'.repeat(1024 * 1024);
    const r = await ex.execute('echo', { text: big });
    expect(r.status).toBe('SUCCESS');
    expect(r.finalText!.length).toBeLessThan(10_000);
    expect(r.finalText).toContain(String(big.length));
  });

  it('stops $VAR_REF cycles through other variables with a clear error', async () => {
    const ex = executor();
    ex.variables.add('a', 'A then $VAR_REF{{b}}', 'LLMAdd');
    ex.variables.add('b', 'B then $VAR_REF{{c}}', 'LLMAdd');
    ex.variables.add('c', 'C then $VAR_REF{{a}}', 'LLMAdd');
    ex.variables.add('self', 'me: $VAR_REF{{self}}', 'LLMAdd');
    for (const text of ['$VAR_REF{{a}}', '$VAR_REF{{self}}']) {
      const r = await ex.execute('echo', { text });
      expect(r.status).toBe('ERROR');
      expect(r.finalText).toMatch(/cycle|circular|itself|recurs/i);
    }
    const unknown = await ex.execute('echo', { text: '$VAR_REF{{does_not_exist}}' });
    expect(unknown.status).toBe('ERROR');
    expect(unknown.finalText).toContain('does_not_exist');
  });

  it('refuses a reference that would expand to 100 MB, with bounded memory', async () => {
    const ex = executor();
    ex.variables.add('mb', 'A'.repeat(1024 * 1024), 'LLMAdd');
    // 10 × 10 × 1 MB = 100 MB if expanded.
    ex.variables.add('ten', '$VAR_REF{{mb}}'.repeat(10), 'LLMAdd');
    ex.variables.add('hundred', '$VAR_REF{{ten}}'.repeat(10), 'LLMAdd');
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    const r = await ex.execute('echo', { text: '$VAR_REF{{hundred}}' });
    const grown = process.memoryUsage().heapUsed - before;
    console.log(`$VAR_REF bomb (100 MB): ${r.status} in ${Math.round(r.durationMs ?? 0)} ms, heap grew ${Math.round(grown / 1024 / 1024)} MB: ${r.finalText?.slice(0, 120)}`);
    expect(r.status).toBe('ERROR');
    expect(r.finalText).toMatch(/VAR_REF|expan|large|limit/i);
    expect(grown).toBeLessThan(150 * 1024 * 1024);
  });

  it('answers unknown and disabled tools clearly', async () => {
    const ex = executor();
    const unknown = await ex.execute('rm_rf_everything', { path: '/' });
    expect(unknown.status).toBe('NOT_FOUND');
    expect(unknown.finalText).toContain('rm_rf_everything');
    const lookalike = await ex.execute('\u0435cho', { text: 'x' });
    expect(lookalike.status).toBe('NOT_FOUND');
    ex.setToolEnabled('echo', false);
    const disabled = await ex.execute('echo', { text: 'x' });
    expect(disabled.status).not.toBe('SUCCESS');
    expect(disabled.finalText).toMatch(/disabled|not enabled|turned off|off/i);
    ex.setToolEnabled('echo', true);
    ex.toggleGroupEnabled('basic', false);
    expect((await ex.execute('echo', { text: 'x' })).status).not.toBe('SUCCESS');
  });

  it('runs 50 parallel calls of a real sandboxed script tool: 50 clear results, no crash', async () => {
    const root = tmp();
    mkdirSync(join(root, 'par'));
    writeFileSync(join(root, 'par/tool.json'), JSON.stringify({ name: 'par', description: 'x', always_allow: true, parameters: { type: 'object', properties: { i: { type: 'integer' } }, required: ['i'] } }));
    writeFileSync(join(root, 'par/script.py'), 'import json, sys\na = json.load(sys.stdin)\nprint(json.dumps({"i": a["i"], "sq": a["i"] * a["i"]}))\n');
    const settings = defaultSettings();
    settings.pythonPath = realPython();
    settings.workingDir = tmp();
    const loaded = await discoverTools([root], createSourceContext(settings, tmp()));
    const ex = new ToolExecutor({ sessionId: 'par', approve: async () => ({ decision: 'once' }) });
    for (const g of loaded.groups) {
      ex.registerToolGroup(g);
      ex.toggleGroupEnabled(g.name, true);
    }
    const started = Date.now();
    const calls = Array.from({ length: 50 }, (_, i) => (i % 10 === 9 ? ex.execute('script_par', { i: 'not a number' }) : ex.execute('script_par', { i })));
    const results = await Promise.all(calls);
    console.log(`50 parallel sandboxed calls: ${Date.now() - started} ms, ${results.filter((r) => r.status === 'SUCCESS').length} SUCCESS, ${results.filter((r) => r.status === 'ERROR').length} ERROR`);
    results.forEach((r, i) => {
      if (i % 10 === 9) expect(r.status).toBe('ERROR');
      else {
        expect(r.status, r.finalText).toBe('SUCCESS');
        expect(r.data).toEqual({ i, sq: i * i });
      }
    });
  }, 60_000);
});
