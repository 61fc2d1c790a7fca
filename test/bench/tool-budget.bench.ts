// Budget mode (issue 14): characters of tool definitions in one request with 1 000 enabled Python
// module tools (generated like python-tools.bench), with and without budget mode, and the time
// FindTools takes over them (building its index once, then each query).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS, defaultSettings } from '../../shared/settings.ts';
import { definitionChars, ToolBudget } from '../../electron/runtime/chat/tool-calls/tool-budget.ts';
import { loadPythonModules } from '../../electron/runtime/sources/python/index.ts';
import { createSourceContext } from '../../electron/runtime/sources/source-context.ts';
import type { SourceEntry } from '../../electron/runtime/sources/types.ts';
import { ToolExecutor } from '../../electron/runtime/tools/tool-executor.ts';
import { ToolSearchIndex } from '../../electron/runtime/tools/find-tools-ranking.ts';
import { percentile, report } from './report.ts';

const MODULES = 50;
const FUNCTIONS = 20;
const QUERIES = 200;
const TOPICS = ['weather', 'invoice', 'calendar', 'image', 'database', 'email', 'translate', 'archive', 'currency', 'stock'];

function moduleSource(m: number): string {
  const topic = TOPICS[m % TOPICS.length]!;
  const lines = [`"""Generated ${topic} module ${m}."""`, 'from typing import Literal, Optional', ''];
  for (let f = 0; f < FUNCTIONS; f++) {
    lines.push(
      `def ${topic}_${m}_${f}(city: str, days: int = 3, unit: Literal["c", "f"] = "c", note: Optional[str] = None) -> dict:`,
      `    """${topic} tool ${f} of module ${m}: looks up ${topic} records number ${m * FUNCTIONS + f}.`,
      '',
      '    Args:',
      '        city: City name',
      '        days: Number of days',
      '        unit: Unit',
      '        note: A note',
      '    """',
      '    return {"city": city, "days": days}',
      '',
    );
  }
  return lines.join('\n');
}

export async function run(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'td-bench-budget-'));
  const entries: SourceEntry[] = [];
  for (let m = 0; m < MODULES; m++) {
    const path = join(root, `mod_${String(m).padStart(3, '0')}.py`);
    writeFileSync(path, moduleSource(m));
    entries.push({ root, path, format: 'python' });
  }
  const settings = defaultSettings();
  settings.sandbox.mode = 'off';
  const loaded = await loadPythonModules(entries, createSourceContext(settings, mkdtempSync(join(tmpdir(), 'td-bench-home-'))));
  const executor = new ToolExecutor({ sessionId: 'bench' });
  for (const group of loaded.groups) {
    executor.registerToolGroup(group);
    executor.toggleGroupEnabled(group.name, true);
  }
  const all = executor.getEnabledToolDefinitions();
  const budgetChars = DEFAULT_LIMITS.toolDefinitionBudgetChars;
  const full = definitionChars(all);
  const budget = new ToolBudget();
  const offered = budget.offer(all, new Set(), budgetChars);
  const inBudget = definitionChars(offered.tools) + (offered.rule?.length ?? 0);
  report(all.length, 'tools', `enabled (${MODULES} Python modules × ${FUNCTIONS} functions, plus ReadVar/ListVars)`);
  report(full, 'chars', 'tool definitions per request WITHOUT budget mode');
  report(inBudget, 'chars', `tool definitions + rule per request WITH budget mode (budget ${budgetChars})`);
  report(full / inBudget, '×', 'smaller with budget mode');

  let started = performance.now();
  const index = new ToolSearchIndex(all);
  report(performance.now() - started, 'ms', `FindTools index over ${index.size} tools (built once per tool set)`);
  const times: number[] = [];
  let hits = 0;
  for (let i = 0; i < QUERIES; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    started = performance.now();
    const found = index.search(`${topic} records number ${(i * 37) % 1000}`, 5);
    times.push(performance.now() - started);
    if (found.length > 0) hits++;
  }
  times.sort((a, b) => a - b);
  report(percentile(times, 50), 'ms', `FindTools query over ${all.length} tools (median of ${QUERIES})`);
  report(percentile(times, 95), 'ms', 'FindTools query, 95th percentile');
  report(hits, 'queries', `of ${QUERIES} found at least one tool`);
  started = performance.now();
  budget.find({ query: 'weather records number 42' }, all);
  report(performance.now() - started, 'ms', 'first FindTools call of a chat (index build + query)');
}
