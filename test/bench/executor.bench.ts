// ToolExecutor alone: per-call overhead of the full pipeline, and ListVars search at scale; and a
// chat call's own overhead through its ToolSession (the one door) with 1 000 tools loaded.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolRule } from '../../shared/permissions.ts';
import { defaultSettings } from '../../shared/settings.ts';
import { bookCallGuard } from '../../electron/runtime/tools/rules/book-call-guard.ts';
import { RuleBook } from '../../electron/runtime/tools/rules/rule-book.ts';
import { ToolExecutor, type ToolExecutorOptions } from '../../electron/runtime/tools/tool-executor.ts';
import { ToolSession } from '../../electron/runtime/tools/tool-session.ts';
import type { ToolGroup } from '../../electron/runtime/tools/types.ts';
import { VariableSystem } from '../../electron/runtime/tools/variables/variable-system.ts';
import { gc, percentile, report } from './report.ts';

const CALLS = 10_000;
const VARIABLES = 100_000;

async function perCallOverhead(): Promise<void> {
  const times = await callTimes({}, { q: 'x' });
  report(percentile(times, 50), 'µs', `execute() p50 over ${CALLS} calls: auto policy, 1 KB result, validate+format+truncate+cache`);
  report(percentile(times, 99), 'µs', `execute() p99 over ${CALLS} calls (same)`);
}

/** p50 of execute() with a rule guard holding no rules, then 200 (10 on this tool, with path, glob and regex tests). */
async function ruleOverhead(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'bench-rules-'));
  // The file the calls name exists, as a real call's would.
  mkdirSync(join(home, 'projects/app'), { recursive: true });
  writeFileSync(join(home, 'projects/app/main.ts'), '');
  const args = { q: 'x', path: '~/projects/app/main.ts' };
  const withRules = async (toolRules: ToolRule[]) => {
    const settings = { ...defaultSettings(), toolRules };
    const book = new RuleBook({ get: () => settings, onDidChange: () => () => {} }, { home });
    const times = await callTimes({ guard: bookCallGuard(book) }, args);
    return percentile(times, 50);
  };
  const none = percentile(await callTimes({}, args), 50);
  const empty = await withRules([]);
  const many: ToolRule[] = [];
  for (let i = 0; i < 190; i++) many.push({ action: i % 3 ? 'allow' : 'deny', tool: `other_${i}_*`, where: [{ path: 'path', prefix: `~/area${i}` }] });
  for (let i = 0; i < 10; i++) {
    many.push({ action: 'deny', tool: 'kb', where: [{ path: 'path', prefix: `~/secret${i}` }] });
    if (i % 2) many.push({ action: 'ask', tool: 'k?', where: [{ path: 'q', regex: `^danger${i}$` }] });
    else many.push({ action: 'deny', tool: '*', where: [{ glob: `~/private${i}/**` }] });
  }
  const one = await withRules([{ action: 'deny', tool: 'kb', where: [{ path: 'path', prefix: '~/secret0' }] }]);
  const full = await withRules(many.slice(0, 200));
  rmSync(home, { recursive: true, force: true });
  report(none, 'µs', 'execute() p50 without a rule guard (path argument)');
  report(empty, 'µs', 'execute() p50 with the rule guard and no rules');
  report(one, 'µs', 'execute() p50 with one path rule on the tool (the path argument resolved: ~, .., symlinks)');
  report(full, 'µs', 'execute() p50 with 200 rules (10 on the tool: path prefixes, globs, regexes; ~ and symlinks resolved)');
  report(one / none, '×', 'one path rule against no guard (the goal: at most 2×)');
  report(full / empty, '×', '200 rules against none (the goal: at most 2×)');
  report(full / one, '×', '200 rules against one path rule (what the count of rules costs)');
}

async function callTimes(options: Partial<ToolExecutorOptions>, args: Record<string, unknown>): Promise<number[]> {
  const kb = 'x'.repeat(1024);
  const executor = new ToolExecutor({ sessionId: 'bench', ...options });
  executor.registerToolGroup({
    name: 'bench',
    tools: [
      {
        definition: {
          type: 'function',
          function: { name: 'kb', description: '1 KB', parameters: { type: 'object', properties: { q: { type: 'string' }, path: { type: 'string' } }, required: ['q'] } },
        },
        permission: { executionPolicy: 'auto' },
        execute: async () => ({ data: kb }),
      },
    ],
  });
  executor.toggleGroupEnabled('bench', true);
  // Warm up with the very arguments object the timed calls pass: a spread copy has another hidden
  // class, and warming on it left V8 to deoptimise and re-optimise inside the timed window.
  for (let i = 0; i < 3000; i++) await executor.execute('kb', args, { callId: `w${i}` });
  gc();
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    const result = await executor.execute('kb', args, { callId: `c${i}` });
    times.push((performance.now() - started) * 1000);
    if (result.status !== 'SUCCESS') throw new Error(`bench call failed: ${result.finalText}`);
  }
  executor.close();
  return times.sort((a, b) => a - b);
}

async function listVarsSearch(): Promise<void> {
  const variables = new VariableSystem({ maxEntries: VARIABLES * 2 });
  for (let i = 0; i < VARIABLES; i++) {
    variables.add(`Search_call_${i}_result`, 'v'.repeat(64), 'ToolCallResult', { tags: [i % 2 ? 'web' : 'fs'] });
  }
  const executor = new ToolExecutor({ sessionId: 'bench', variables });
  executor.registerToolGroup({ name: 'any', tools: [] });
  executor.toggleGroupEnabled('any', true);
  const runs = 30;
  for (let i = 0; i < 5; i++) await executor.execute('ListVars', { search: 'warm', limit: 50 });
  const started = performance.now();
  for (let i = 0; i < runs; i++) {
    const result = await executor.execute('ListVars', { search: `call_${(i * 3331) % VARIABLES}_`, limit: 50 });
    if (result.status !== 'SUCCESS') throw new Error(`ListVars failed: ${result.finalText}`);
  }
  report((performance.now() - started) / runs, 'ms', `ListVars search over ${VARIABLES} variables (substring of name/desc/tags, page of 50)`);
  const tagStarted = performance.now();
  for (let i = 0; i < runs; i++) await executor.execute('ListVars', { tag: 'web', limit: 50 });
  report((performance.now() - tagStarted) / runs, 'ms', `ListVars tag filter over ${VARIABLES} variables (50 000 match, page of 50)`);
}

/** A hostile or generated tool: 50 000 required parameters, called with none of them. */
async function wideSchemaCall(): Promise<void> {
  const properties = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`p${i}`, { type: 'string' }]));
  const executor = new ToolExecutor({ sessionId: 'bench', approve: async () => ({ decision: 'once' }) });
  executor.registerToolGroup({
    name: 'wide',
    tools: [{ definition: { type: 'function', function: { name: 'wide', description: 'x', parameters: { type: 'object', properties, required: Object.keys(properties) } } }, execute: async () => ({ data: 'ok' }) }],
  });
  executor.toggleGroupEnabled('wide', true);
  const started = performance.now();
  const result = await executor.execute('wide', {});
  report(performance.now() - started, 'ms', 'execute() refusing a call to a 50 000-required-parameter tool (first call: counts and narrows the schema)');
  report((result.finalText ?? '').length, 'chars', 'the validation message the model gets for it (20 problems listed, the rest counted)');
}

/**
 * What a chat call costs besides the tool itself, with 1 000 tools in 10 groups: the ToolSession's
 * per-call work as ChatToolCalls does it (groupOf, the tool's summary, the selection check,
 * execute, the approval memory compared for saving), then groupOf alone (O(1) through the catalog).
 */
async function chatCallOverhead(): Promise<void> {
  const kb = 'x'.repeat(1024);
  const groups: ToolGroup[] = Array.from({ length: 10 }, (_, g) => ({
    name: `group_${g}`,
    tools: Array.from({ length: 100 }, (_, t) => ({
      definition: { type: 'function' as const, function: { name: `tool_${g}_${t}`, description: `tool ${t} of group ${g}`, parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } } },
      permission: { executionPolicy: 'auto' as const },
      execute: async () => ({ data: kb }),
    })),
  }));
  const settings = { ...defaultSettings(), groupDefaults: Object.fromEntries(groups.map((g) => [g.name, true])) };
  const session = new ToolSession({ settings: () => settings, tools: { groups: () => groups } }, { sessionId: 'bench-chat' });
  const name = 'tool_9_99';
  const args = { q: 'x' };
  let memory = JSON.stringify(session.exportApprovalMemory());
  const call = async (callId: string) => {
    const groupName = session.groupOf(name);
    session.summarize(name, args);
    const result = await session.execute(name, args, { callId });
    const now = JSON.stringify(session.exportApprovalMemory());
    if (now !== memory) memory = now;
    if (result.status !== 'SUCCESS' || groupName !== 'group_9') throw new Error(`bench chat call failed: ${result.finalText}`);
  };
  for (let i = 0; i < 3000; i++) await call(`w${i}`);
  gc();
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await call(`c${i}`);
    times.push((performance.now() - started) * 1000);
  }
  times.sort((a, b) => a - b);
  const lookups: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    session.groupOf(`tool_${i % 10}_${i % 100}`);
    lookups.push((performance.now() - started) * 1000);
  }
  lookups.sort((a, b) => a - b);
  session.close();
  report(percentile(times, 50), 'µs', `a chat call's own overhead p50 (ToolSession + executor, 1 000 tools; goal ≤ 30 µs)`);
  report(percentile(times, 99), 'µs', `a chat call's own overhead p99 (same)`);
  report(percentile(lookups, 50), 'µs', 'ToolSession.groupOf p50 with 1 000 tools (one catalog lookup)');
}

export async function run(): Promise<void> {
  await perCallOverhead();
  await chatCallOverhead();
  await ruleOverhead();
  await listVarsSearch();
  await wideSchemaCall();
}
