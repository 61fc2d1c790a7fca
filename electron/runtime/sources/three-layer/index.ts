// Astrion three-layer tools (seed 004): `<id>/definition.json` + `execution.py` (a str.format
// template, substituted injection-proof) + optional `return.json` and `meta.json`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../../../../shared/tools.ts';
import type { RunResult } from '../../runner/types.ts';
import { timedOutText } from '../../tools/result/timeout-message.ts';
import type { Tool, ToolGroup } from '../../tools/types.ts';
import { pythonPreloadSet } from '../../runner/warm-python/preload-set.ts';
import { mapLimit } from '../process/map-limit.ts';
import { readTextFile, ToolSourceTooLargeError } from '../files/read-text-file.ts';
import { PYTHON_STDIN_FLAGS } from '../process/python-flags.ts';
import { resolvePythonCommand } from '../process/resolve-python-command.ts';
import { runToolProcess, type ProcessReading } from '../process/run-tool-process.ts';
import { formatReturnTemplate, readThreeLayerDefinition, THREE_LAYER_MAX_TIMEOUT_S, type ThreeLayerDefinition } from './definition.ts';
import { compileExecution, renderExecution, type CompiledExecution } from './template.ts';
import type { LoadResult, SourceContext, SourceEntry, SourceLoader } from '../types.ts';

/** Seed 004's global output cap, characters. */
export const THREE_LAYER_OUTPUT_CAP = 10_000;

export const loadThreeLayerTools: SourceLoader = async (entries, ctx) => {
  const result: LoadResult = { groups: [], diagnostics: [] };
  const byCategory = new Map<string, Tool[]>();
  for (const loaded of await mapLimit(entries, 16, (entry) => loadThreeLayerTool(entry, ctx))) {
    result.diagnostics.push(...loaded.diagnostics);
    if (!loaded.tool || !loaded.category) continue;
    const list = byCategory.get(loaded.category) ?? [];
    list.push(loaded.tool);
    byCategory.set(loaded.category, list);
  }
  for (const [name, tools] of byCategory) result.groups.push({ name, tools } satisfies ToolGroup);
  return result;
};

/** Reads and compiles a three-layer folder without running anything (loading and authoring share it). */
export async function readThreeLayerFolder(dir: string, maxBytes?: number): Promise<{ definition?: ThreeLayerDefinition; compiled?: CompiledExecution; diagnostics: Diagnostic[] }> {
  const { definition, diagnostics } = await readThreeLayerDefinition(dir, maxBytes);
  if (!definition) return { diagnostics };
  const executionFile = join(dir, 'execution.py');
  if (!existsSync(executionFile)) {
    return { diagnostics: [...diagnostics, { severity: 'error', file: dir, message: 'Three-layer tool folder has no execution.py', hint: 'Add execution.py next to definition.json (see `tooldesk tools new three-layer NAME`).', code: 'no-execution' }] };
  }
  let template: string;
  try {
    template = await readTextFile(executionFile, maxBytes);
  } catch (error) {
    const hint = error instanceof ToolSourceTooLargeError ? error.hint : 'Make it a regular, readable text file.';
    return { diagnostics: [...diagnostics, { severity: 'error', file: executionFile, message: `Cannot read: ${(error as Error).message}`, hint, code: 'unreadable' }] };
  }
  const compiled = compileExecution(template, definition.parameters, executionFile);
  return { definition, compiled, diagnostics: [...diagnostics, ...compiled.diagnostics] };
}

export async function loadThreeLayerTool(entry: SourceEntry, ctx: SourceContext): Promise<{ tool: Tool | null; category?: string; diagnostics: Diagnostic[] }> {
  const { definition, compiled, diagnostics } = await readThreeLayerFolder(entry.path, ctx.toolSourceMaxBytes);
  if (!definition || !compiled) return { tool: null, diagnostics };
  return { tool: createThreeLayerTool(definition, compiled, entry, ctx), category: definition.category, diagnostics };
}

export function createThreeLayerTool(definition: ThreeLayerDefinition, compiled: CompiledExecution, entry: SourceEntry, ctx: SourceContext): Tool {
  const timeoutMs = definition.timeoutS * 1000;
  const definitionFile = join(entry.path, 'definition.json');
  const timeoutMessage = (ms: number) => `timeout: execution.py ${timedOutText(ms, `${definitionFile} ("timeout": seconds, at most ${THREE_LAYER_MAX_TIMEOUT_S})`)}`;
  const meta: Record<string, unknown> = { ...(definition.meta ?? {}), category: definition.category, folder: entry.path };
  if (definition.icon && meta.icon === undefined) meta.icon = definition.icon;
  return {
    definition: { type: 'function', function: { name: definition.id, description: definition.description, parameters: definition.parameters } },
    source: { format: 'three-layer', file: definitionFile, root: entry.root },
    relativeTo: [ctx.workingDir],
    timeoutMs,
    timeoutMessage,
    ...(definition.secrets.length > 0 ? { secrets: definition.secrets } : {}),
    meta,
    async execute(args, call) {
      const rendered = renderExecution(compiled, args ?? {}, definition.parameters);
      if (!rendered.ok) return { status: 'ERROR', error: rendered.error };
      const command = await resolvePythonCommand(ctx.pythonPath, ctx.runner);
      return runToolProcess(ctx, call, {
        // The program comes on stdin so its size is not bound by argv limits.
        spec: { command, args: [...PYTHON_STDIN_FLAGS, '-'], cwd: ctx.workingDir, stdin: rendered.code, env: ctx.env, python: { kind: 'code', code: rendered.code, preload: pythonPreloadSet([join(entry.path, 'execution.py')]) } },
        toolName: definition.id,
        toolDir: entry.path,
        network: definition.network,
        secrets: definition.secrets,
        timeoutMs,
        ...threeLayerReading(definition, timeoutMessage),
      });
    },
  };
}

/** Output = stdout + stderr, capped, then return.json's truncate and template (seed 004 §6). */
export function threeLayerReading(definition: ThreeLayerDefinition, timedOut: (timeoutMs: number) => string): ProcessReading {
  // Tracebacks name the program read from stdin; point them at the file the user wrote.
  const stderrOf = (run: RunResult) => run.stderr.replaceAll('File "<stdin>"', 'File "execution.py"');
  return {
    // Only a run stopped before it ended shows its output as logs: otherwise it is the result.
    logs: (run) => (run.timedOut || run.aborted ? capOutput(run.stdout + stderrOf(run)).output : ''),
    notStarted: (why) => `Python could not start: ${why}`,
    aborted: 'aborted',
    timedOut,
    read: (run, base) => {
      const stderr = stderrOf(run);
      const capped = capOutput(run.stdout + stderr);
      let output = capped.output;
      const warnings = [...(base.warnings ?? []), ...(capped.cut ? [`output exceeded ${THREE_LAYER_OUTPUT_CAP} characters and was cut`] : [])];
      if (definition.truncate !== undefined && output.length > definition.truncate) output = output.slice(0, definition.truncate);
      const returnCode = run.exitCode ?? -1;
      const message = definition.template
        ? formatReturnTemplate(definition.template, { output, stderr, return_code: returnCode, tool_id: definition.id }) ?? output
        : output;
      const withWarnings = warnings.length ? { warnings } : {};
      if (run.exitCode !== 0) return { status: 'ERROR', error: message || `execution.py exited with code ${returnCode}`, ...withWarnings };
      return { status: 'SUCCESS', data: message, ...withWarnings };
    },
  };
}

function capOutput(output: string): { output: string; cut: boolean } {
  if (output.length <= THREE_LAYER_OUTPUT_CAP) return { output, cut: false };
  return { output: `${output.slice(0, THREE_LAYER_OUTPUT_CAP)}\n…[output cut at ${THREE_LAYER_OUTPUT_CAP} characters]`, cut: true };
}
